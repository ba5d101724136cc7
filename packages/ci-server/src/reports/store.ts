// Unit-test results: the cases an agent parsed from a job's JUnit files (ReportTests) are stored per job run,
// replacing an earlier report of the same job run (a resend is harmless), and aggregated per run for
// `GET /api/v1/runs/{id}/tests`. Only the latest attempt of each job counts, so a job that failed its tests
// and passed on retry reads as passed. Totals are computed by the database, case lists are bounded.
import { sql } from 'kysely';
import { jobRunDisplayName } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import type { TestCaseStatus } from '../store/execution-schema.js';
import { nowIso } from '../store/ids.js';

/** Cases kept per job run (the agent lists at most as many). */
export const MAX_CASES_PER_JOB = 20_000;
const MAX_FIELD = { suite: 1_000, classname: 1_000, name: 2_000, message: 16_384 };
const INSERT_CHUNK = 500;
const STATUSES: readonly TestCaseStatus[] = ['passed', 'failed', 'error', 'skipped'];

export interface TestCaseInput {
  suite: string;
  classname: string;
  name: string;
  /** passed | failed | error | skipped (anything else counts as error). */
  status: string;
  durationS: number;
  message?: string;
}

export interface TestReportInput {
  jobRunId: string;
  cases: readonly TestCaseInput[];
  /** Files the agent could not read as JUnit XML (with its message). */
  unreadableFiles?: readonly string[];
}

export interface Totals {
  tests: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  duration_s: number;
}

export interface RunTestReport extends Totals {
  /** Per reporting job run (latest attempts only). */
  jobs: (Totals & { job_run_id: string; job_name: string; attempt: number; unreadable_files: string[] })[];
  /** Per suite across the run. */
  suites: (Totals & { name: string })[];
  /** Failed and erroring cases first, then the others, at most `limit`. */
  cases: {
    job_run_id: string;
    job_name: string;
    suite: string;
    classname: string;
    name: string;
    status: TestCaseStatus;
    duration_s: number;
    message: string | null;
  }[];
  /** More cases matched than `cases` holds. */
  cases_truncated: boolean;
}

export class UnknownJobRunReportError extends Error {
  override name = 'UnknownJobRunReportError';
}

const clip = (s: unknown, n: number) =>
  String(s ?? '')
    .replaceAll('\u0000', '\uFFFD')
    .slice(0, n);

export class TestReportStore {
  private readonly db: StoreDb;

  constructor(db: StoreDb) {
    this.db = db;
  }

  /** Stores (or replaces) a job run's report. Throws `UnknownJobRunReportError` for an unknown job run. */
  async storeTestReport(report: TestReportInput): Promise<{ cases: number }> {
    const job = await this.db
      .selectFrom('job_runs')
      .select('run_id')
      .where('id', '=', report.jobRunId)
      .executeTakeFirst();
    if (!job) throw new UnknownJobRunReportError(`job run ${report.jobRunId} does not exist`);
    const rows = report.cases.slice(0, MAX_CASES_PER_JOB).map((c, position) => ({
      job_run_id: report.jobRunId,
      position,
      run_id: job.run_id,
      suite: clip(c.suite, MAX_FIELD.suite),
      classname: clip(c.classname, MAX_FIELD.classname),
      name: clip(c.name, MAX_FIELD.name),
      status: (STATUSES.includes(c.status as TestCaseStatus) ? c.status : 'error') as TestCaseStatus,
      duration_s: Number.isFinite(c.durationS) && c.durationS > 0 ? c.durationS : 0,
      message: c.message ? clip(c.message, MAX_FIELD.message) : null,
    }));
    const unreadable = (report.unreadableFiles ?? []).slice(0, 1_000).map((f) => clip(f, 2_000));
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('test_cases').where('job_run_id', '=', report.jobRunId).execute();
      await trx.deleteFrom('test_reports').where('job_run_id', '=', report.jobRunId).execute();
      await trx
        .insertInto('test_reports')
        .values({
          job_run_id: report.jobRunId,
          run_id: job.run_id,
          unreadable_files: JSON.stringify(unreadable),
          received_at: nowIso(),
        })
        .execute();
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        await trx
          .insertInto('test_cases')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute();
    });
    return { cases: rows.length };
  }

  /** The run's aggregated report; `undefined` when the run does not exist. */
  async runTestReport(
    runId: string,
    options: { limit?: number; status?: TestCaseStatus } = {},
  ): Promise<RunTestReport | undefined> {
    const run = await this.db.selectFrom('runs').select('id').where('id', '=', runId).executeTakeFirst();
    if (!run) return undefined;
    const limit = options.limit ?? 1_000;
    // Latest attempt of each job run position that reported.
    const reports = await this.db
      .selectFrom('test_reports as r')
      .innerJoin('job_runs as j', 'j.id', 'r.job_run_id')
      .select(['j.id', 'j.name', 'j.matrix', 'j.attempt', 'j.position', 'r.unreadable_files'])
      .where('r.run_id', '=', runId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('job_runs as later')
              .select('later.id')
              .whereRef('later.run_id', '=', 'j.run_id')
              .whereRef('later.position', '=', 'j.position')
              .whereRef('later.attempt', '>', 'j.attempt'),
          ),
        ),
      )
      .orderBy('j.position')
      .execute();
    const current = reports.map((r) => r.id);
    const names = new Map(reports.map((r) => [r.id, jobRunDisplayName(r.name, parseMatrix(r.matrix))]));
    const empty = (): Totals => ({ tests: 0, passed: 0, failed: 0, errors: 0, skipped: 0, duration_s: 0 });
    const byJob = new Map<string, Totals>(current.map((id) => [id, empty()]));
    const bySuite = new Map<string, Totals>();
    const total = empty();
    let cases: RunTestReport['cases'] = [];
    let matched = 0;
    if (current.length > 0) {
      const groups = await this.db
        .selectFrom('test_cases')
        .select((eb) => [
          'job_run_id',
          'suite',
          'status',
          eb.fn.countAll<number>().as('n'),
          eb.fn.sum<number>('duration_s').as('d'),
        ])
        .where('job_run_id', 'in', current)
        .groupBy(['job_run_id', 'suite', 'status'])
        .execute();
      for (const g of groups) {
        const n = Number(g.n);
        const d = Number(g.d ?? 0);
        let suite = bySuite.get(g.suite);
        if (!suite) {
          suite = empty();
          bySuite.set(g.suite, suite);
        }
        for (const t of [total, byJob.get(g.job_run_id)!, suite]) add(t, g.status as TestCaseStatus, n, d);
        if (!options.status || options.status === g.status) matched += n;
      }
      let query = this.db
        .selectFrom('test_cases')
        .select(['job_run_id', 'suite', 'classname', 'name', 'status', 'duration_s', 'message', 'position'])
        .where('job_run_id', 'in', current);
      if (options.status) query = query.where('status', '=', options.status);
      const rows = await query
        .orderBy(sql`case when status in ('failed', 'error') then 0 else 1 end`)
        .orderBy('job_run_id')
        .orderBy('position')
        .limit(limit)
        .execute();
      cases = rows.map((r) => ({
        job_run_id: r.job_run_id,
        job_name: names.get(r.job_run_id) ?? '',
        suite: r.suite,
        classname: r.classname,
        name: r.name,
        status: r.status,
        duration_s: round(Number(r.duration_s)),
        message: r.message,
      }));
    }
    return {
      ...roundTotals(total),
      jobs: reports.map((r) => ({
        job_run_id: r.id,
        job_name: names.get(r.id) ?? r.name,
        attempt: r.attempt,
        ...roundTotals(byJob.get(r.id)!),
        unreadable_files: parseList(r.unreadable_files),
      })),
      suites: [...bySuite.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, t]) => ({ name, ...roundTotals(t) })),
      cases,
      cases_truncated: matched > cases.length,
    };
  }
}

function add(t: Totals, status: TestCaseStatus, n: number, d: number): void {
  t.tests += n;
  t.duration_s += d;
  if (status === 'passed') t.passed += n;
  else if (status === 'failed') t.failed += n;
  else if (status === 'skipped') t.skipped += n;
  else t.errors += n;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const roundTotals = (t: Totals): Totals => ({ ...t, duration_s: round(t.duration_s) });

function parseMatrix(text: string): Record<string, string> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

function parseList(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

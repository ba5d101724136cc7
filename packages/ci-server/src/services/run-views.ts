// The read side of runs as the API shapes them (decisions.md): RunSummary for lists, RunDetail with stages,
// every attempt of every job run and the last N log lines of each.
import { badRequest, notFound } from '@app/kit';
import { interpolateParams, type PipelineDocument, type RunStatus } from '../domain/index.js';
import type { ArchivedLogs } from '../logs/archived-logs.js';
import type { StoreDb } from '../store/database.js';
import type { PipelineNames } from '../store/pipeline-names.js';
import {
  type DetailLogLine,
  gateDecisionRows,
  listRuns,
  type RunFilter,
  type RunSummaryRow,
  runDetailRows,
  runSummary,
  versionDefinition,
} from '../store/runs-query.js';
import { type ForkRunView, forkRunOf } from './fork-runs.js';

export type RunSummary = RunSummaryRow;

export interface LogLine {
  job_run_id: string;
  seq: number;
  stream: string;
  at: string;
  text: string;
}

export interface JobRunView {
  id: string;
  name: string;
  status: string;
  matrix: Record<string, string>;
  agent: string | null;
  /** The engine that ran the attempt: podman, sandbox, or host (no isolation); null before it started. */
  engine: string | null;
  attempt: number;
  exit_code: number | null;
  /** Why the attempt failed or was canceled (see failureReason); null otherwise. */
  failure_reason: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** Names of the jobs this one waits for (the run graph's edges). */
  needs: string[];
  /** For a manual gate: what it asks, how many approvals it needs, and every decision taken on it. */
  gate: GateView | null;
  logs: LogLine[];
}

export interface GateDecision {
  decision: 'approve' | 'reject';
  actor: string;
  comment: string | null;
  at: string;
}

export interface GateView {
  description: string | null;
  required: number;
  /** Distinct people who approved this attempt so far. */
  approvals: number;
  decisions: GateDecision[];
  /** Who may decide (approval.approvers); empty with approver_groups empty: any maintainer. */
  approvers: string[];
  /** Roles that may decide (approval.approver_groups). */
  approver_groups: string[];
  /** Whether whoever triggered the run may approve (approval.allow_self_approval). */
  allow_self_approval: boolean;
}

export interface RunDetail extends RunSummary {
  parameters: Record<string, string>;
  triggered_by: string;
  /** A run of a fork's pull request: where from, why it waits or has no secrets, who approved. */
  fork: ForkRunView | null;
  /** The labels of the pull request the run builds (gocdnext's `quorum_by_label` reads them); else empty. */
  pr_labels: string[];
  /** Pipelines as code: why the definition at the run's commit did not apply (the run used the last good one). */
  definition_error: string | null;
  stages: { name: string; status: string; jobs: JobRunView[] }[];
}

export interface RunListQuery {
  status?: RunStatus;
  project?: string;
  pipeline?: string;
  limit: number;
  offset: number;
  /** Keyset paging: the id of the last run of the previous page; continue after it. */
  cursor?: string;
}

export async function listRunSummaries(db: StoreDb, names: PipelineNames, q: RunListQuery) {
  if (q.cursor !== undefined && q.offset !== 0)
    throw badRequest('cursor and offset cannot be combined: a cursor says where to continue');
  const filter: RunFilter = { status: q.status, pipelineId: q.pipeline };
  if (q.project !== undefined) {
    const project = await db
      .selectFrom('projects')
      .select('id')
      .where('slug', '=', q.project)
      .executeTakeFirst();
    // A filter naming no project matches no run (like any other filter value matching nothing); a cursor
    // must still name a run, so with one the (empty) page is read for that check.
    if (!project && q.cursor === undefined) return { runs: [], total: 0, limit: q.limit, offset: q.offset };
    filter.projectId = project?.id ?? '';
  }
  const page = await listRuns(db, names, filter, q.limit, q.offset, q.cursor);
  // A run deleted since (retention) cannot say where its page ended: start again or page by offset.
  if (!page) throw badRequest('cursor names no run (it must be the id of the last run of a page)');
  return { runs: page.rows, total: page.total, limit: q.limit, offset: q.offset };
}

/** Each job's lines in log order (the run cursor: control-plane notices sit where they were written). */
function groupLogs(lines: DetailLogLine[], limit: number): Map<string, LogLine[]> {
  const byJob = new Map<string, (LogLine & { cursor: number })[]>();
  for (const l of lines) {
    let list = byJob.get(l.job_run_id);
    if (!list) {
      list = [];
      byJob.set(l.job_run_id, list);
    }
    const cursor = Number(l.run_seq ?? 0);
    list.push({
      job_run_id: l.job_run_id,
      seq: Number(l.seq),
      stream: l.stream,
      at: l.at,
      text: l.text,
      cursor,
    });
  }
  const out = new Map<string, LogLine[]>();
  for (const [id, list] of byJob) {
    list.sort((a, b) => a.cursor - b.cursor || a.seq - b.seq);
    out.set(
      id,
      list.slice(-limit).map(({ cursor: _cursor, ...line }) => line),
    );
  }
  return out;
}

/**
 * Why a job run did not succeed, in one line, or null while it has not failed or been canceled: the reason
 * the agent or the control plane recorded (script exit, timeout, agent lost, could not start, gate
 * timeout), else what its state says (exit code, rejected gate, canceled with its run).
 */
export function failureReason(j: {
  status: string;
  error?: string | null;
  exit_code: number | null;
  rejected_by: string | null;
}): string | null {
  if (j.status !== 'failed' && j.status !== 'canceled') return null;
  if (j.error) return j.error;
  if (j.rejected_by) return `the gate was rejected by ${j.rejected_by}`;
  if (j.status === 'canceled') return 'canceled';
  if (j.exit_code !== null && j.exit_code !== 0) return `the script exited with code ${j.exit_code}`;
  return 'failed';
}

/**
 * The run with each job's last `logLines` lines; a job whose log was archived reads them from its archive
 * (`archives`), so archiving changes nothing a client sees.
 */
export async function getRunDetail(
  db: StoreDb,
  runId: string,
  logLines: number,
  archives?: ArchivedLogs,
): Promise<RunDetail> {
  const [summary, rows, archived, fork] = await Promise.all([
    runSummary(db, runId),
    runDetailRows(db, runId, logLines),
    logLines > 0 && archives ? archives.ofRun(runId) : [],
    forkRunOf(db, runId),
  ]);
  if (!summary || !rows) throw notFound(`run ${runId} not found`);
  const logs = groupLogs(rows.logs, logLines);
  const gates = await gateViews(db, rows.version_id, rows.jobs, JSON.parse(rows.parameters));
  for (const a of archived) {
    const lines = await archives!.lines(a);
    logs.set(
      a.job_run_id,
      lines
        .slice(-logLines)
        .map((l) => ({ job_run_id: l.job_run_id, seq: l.seq, stream: l.stream, at: l.at, text: l.text })),
    );
  }
  const stages = rows.stages.map((s) => ({
    name: s.name,
    status: s.status,
    jobs: rows.jobs
      .filter((j) => j.stage_run_id === s.id)
      .map((j) => ({
        id: j.id,
        name: j.name,
        status: j.status,
        matrix: JSON.parse(j.matrix) as Record<string, string>,
        agent: j.agent,
        engine: j.engine,
        attempt: j.attempt,
        exit_code: j.exit_code,
        failure_reason: failureReason(j),
        started_at: j.started_at,
        finished_at: j.finished_at,
        needs: parseList(j.needs),
        gate: gates.get(j.id) ?? null,
        logs: logs.get(j.id) ?? [],
      })),
  }));
  return {
    ...summary,
    parameters: JSON.parse(rows.parameters) as Record<string, string>,
    triggered_by: rows.triggered_by,
    pr_labels: rows.pr_labels ? parseList(rows.pr_labels) : [],
    // A held run that was canceled (or whose gate expired) no longer waits for anyone.
    fork: fork && {
      ...fork,
      awaiting_approval:
        fork.awaiting_approval && !['success', 'failed', 'canceled'].includes(summary.status),
    },
    definition_error: rows.definition_error ?? null,
    stages,
  };
}

function parseList(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Gate details per gate job run: the description comes from the run's pipeline version. */
async function gateViews(
  db: StoreDb,
  versionId: string,
  jobs: { id: string; name: string; is_gate: number | boolean; required_approvals: number | null }[],
  params: Record<string, string>,
): Promise<Map<string, GateView>> {
  const gateJobs = jobs.filter((j) => Boolean(j.is_gate));
  const out = new Map<string, GateView>();
  if (gateJobs.length === 0) return out;
  const [decisions, definition] = await Promise.all([
    gateDecisionRows(
      db,
      gateJobs.map((j) => j.id),
    ),
    versionDefinition(db, versionId),
  ]);
  let doc: PipelineDocument | undefined;
  try {
    doc = definition ? (JSON.parse(definition) as PipelineDocument) : undefined;
  } catch {
    doc = undefined;
  }
  for (const j of gateJobs) {
    const mine = decisions
      .filter((d) => d.job_run_id === j.id)
      .map((d) => ({
        decision: d.decision === 'reject' ? ('reject' as const) : ('approve' as const),
        actor: d.actor,
        comment: d.comment,
        at: d.at,
      }));
    const spec = doc?.jobs[j.name]?.approval;
    out.set(j.id, {
      // `${{ NAME }}` reads the run's parameter (domain/gate-text.ts).
      description: spec?.description ? interpolateParams(spec.description, params) : null,
      required: j.required_approvals ?? spec?.required ?? 1,
      approvals: new Set(mine.filter((d) => d.decision === 'approve').map((d) => d.actor)).size,
      decisions: mine,
      approvers: spec?.approvers ?? [],
      approver_groups: spec?.approver_groups ?? [],
      allow_self_approval: spec?.allow_self_approval === true,
    });
  }
  return out;
}

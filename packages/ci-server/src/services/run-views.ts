// The read side of runs as the API shapes them (decisions.md): RunSummary for lists, RunDetail with stages,
// every attempt of every job run and the last N log lines of each.
import { notFound } from '@app/kit';
import type { Kysely } from 'kysely';
import type { RunStatus } from '../domain/index.js';
import type { ArchivedLogs } from '../logs/archived-logs.js';
import type { PipelineNames } from '../store/pipeline-names.js';
import {
  listRuns,
  type RunFilter,
  type RunSummaryRow,
  runDetailRows,
  runSummary,
} from '../store/runs-query.js';
import type { CoreDB, LogLinesTable } from '../store/schema.js';

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
  attempt: number;
  exit_code: number | null;
  started_at: string | null;
  finished_at: string | null;
  logs: LogLine[];
}

export interface RunDetail extends RunSummary {
  parameters: Record<string, string>;
  triggered_by: string;
  stages: { name: string; status: string; jobs: JobRunView[] }[];
}

export interface RunListQuery {
  status?: RunStatus;
  project?: string;
  pipeline?: string;
  limit: number;
  offset: number;
}

export async function listRunSummaries(db: Kysely<CoreDB>, names: PipelineNames, q: RunListQuery) {
  const filter: RunFilter = { status: q.status, pipelineId: q.pipeline };
  if (q.project !== undefined) {
    const project = await db
      .selectFrom('projects')
      .select('id')
      .where('slug', '=', q.project)
      .executeTakeFirst();
    // A filter naming no project matches no run (like any other filter value matching nothing).
    if (!project) return { runs: [], total: 0, limit: q.limit, offset: q.offset };
    filter.projectId = project.id;
  }
  const { rows, total } = await listRuns(db, names, filter, q.limit, q.offset);
  return { runs: rows, total, limit: q.limit, offset: q.offset };
}

function groupLogs(lines: LogLinesTable[]): Map<string, LogLine[]> {
  const byJob = new Map<string, LogLine[]>();
  for (const l of lines) {
    let list = byJob.get(l.job_run_id);
    if (!list) {
      list = [];
      byJob.set(l.job_run_id, list);
    }
    list.push({ job_run_id: l.job_run_id, seq: Number(l.seq), stream: l.stream, at: l.at, text: l.text });
  }
  for (const list of byJob.values()) list.sort((a, b) => a.seq - b.seq);
  return byJob;
}

/**
 * The run with each job's last `logLines` lines; a job whose log was archived reads them from its archive
 * (`archives`), so archiving changes nothing a client sees.
 */
export async function getRunDetail(
  db: Kysely<CoreDB>,
  runId: string,
  logLines: number,
  archives?: ArchivedLogs,
): Promise<RunDetail> {
  const [summary, rows, archived] = await Promise.all([
    runSummary(db, runId),
    runDetailRows(db, runId, logLines),
    logLines > 0 && archives ? archives.ofRun(runId) : [],
  ]);
  if (!summary || !rows) throw notFound(`run ${runId} not found`);
  const logs = groupLogs(rows.logs);
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
        attempt: j.attempt,
        exit_code: j.exit_code,
        started_at: j.started_at,
        finished_at: j.finished_at,
        logs: logs.get(j.id) ?? [],
      })),
  }));
  return {
    ...summary,
    parameters: JSON.parse(rows.parameters) as Record<string, string>,
    triggered_by: rows.triggered_by,
    stages,
  };
}

// Stand-in for the agent side in API tests: takes a queued job (running, with an agent name) and reports
// its end through the same store functions and state machine the real job transitions (dispatch/job-transitions.ts) use, and writes log lines.
import { type JobResult, onJobFinished } from '../../src/domain/index.js';
import type { CiServer } from '../../src/index.js';
import { loadRun, persistRun } from '../../src/store/run-snapshot.js';

const dbOf = (server: CiServer) => server.database.db;

async function runOf(server: CiServer, jobId: string): Promise<string> {
  const row = await dbOf(server)
    .selectFrom('job_runs')
    .select('run_id')
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();
  return row.run_id;
}

export async function startJob(server: CiServer, jobId: string, agent = 'agent-1'): Promise<void> {
  const runId = await runOf(server, jobId);
  const postgres = server.database.dialect === 'postgres';
  await dbOf(server)
    .transaction()
    .execute(async (trx) => {
      const loaded = (await loadRun(trx, runId, postgres))!;
      const after = structuredClone(loaded.snapshot);
      const job = after.stages.flatMap((s) => s.jobs).find((j) => j.id === jobId)!;
      if (job.status !== 'queued') throw new Error(`job ${jobId} is ${job.status}, not queued`);
      job.status = 'running';
      await persistRun(trx, loaded, after);
      await trx.updateTable('job_runs').set({ agent }).where('id', '=', jobId).execute();
    });
}

export async function finishJob(
  server: CiServer,
  jobId: string,
  result: JobResult,
  exitCode = 0,
): Promise<void> {
  const runId = await runOf(server, jobId);
  const postgres = server.database.dialect === 'postgres';
  await dbOf(server)
    .transaction()
    .execute(async (trx) => {
      const loaded = (await loadRun(trx, runId, postgres))!;
      const t = onJobFinished(loaded.snapshot, jobId, result);
      if (!t.ok) throw new Error(t.message);
      await persistRun(trx, loaded, t.run);
      await trx.updateTable('job_runs').set({ exit_code: exitCode }).where('id', '=', jobId).execute();
    });
}

export async function writeLogs(server: CiServer, jobId: string, count: number, from = 1): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => ({
    job_run_id: jobId,
    seq: from + i,
    stream: i % 7 === 0 ? 'stderr' : 'stdout',
    at: new Date(Date.UTC(2025, 0, 1, 0, 0, 0, from + i)).toISOString(),
    text: `line ${from + i}`,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await dbOf(server)
      .insertInto('log_lines')
      .values(rows.slice(i, i + 500))
      .execute();
}

/** Job runs of a run as stored, by name then matrix then attempt. */
export async function jobsOf(server: CiServer, runId: string) {
  return dbOf(server)
    .selectFrom('job_runs')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('position')
    .orderBy('attempt')
    .execute();
}

export { dbOf };

// Bulk-inserts runs of one pipeline straight into the store (no stages or jobs), for paging tests that need
// more runs than triggering one by one would make quick. Triggers keep run_stats right as for any insert.
import type { CiServer } from '../../src/index.js';
import { newId } from '../../src/store/ids.js';
import type { RunsTable } from '../../src/store/schema.js';
import { dbOf } from './agent-sim.js';

const STATUSES = ['success', 'failed', 'success', 'canceled', 'success'] as const;

/** Inserts `count` runs, oldest first, one second apart; returns them newest first. */
export async function seedRuns(server: CiServer, pipelineId: string, count: number): Promise<RunsTable[]> {
  const db = dbOf(server);
  const p = await db
    .selectFrom('pipelines')
    .selectAll()
    .where('id', '=', pipelineId)
    .executeTakeFirstOrThrow();
  const base = Date.UTC(2024, 0, 1);
  const rows: RunsTable[] = Array.from({ length: count }, (_, i) => {
    const at = new Date(base + i * 1000).toISOString();
    return {
      id: newId(base + i * 1000),
      project_id: p.project_id,
      pipeline_id: p.id,
      version_id: p.version_id,
      counter: p.counter + i + 1,
      status: STATUSES[i % STATUSES.length],
      cause: 'manual',
      triggered_by: 'seed',
      git_ref: 'main',
      revision: null,
      parameters: '{}',
      rerun_of: null,
      trigger_event: null,
      cancel_requested: 0,
      created_at: at,
      started_at: at,
      finished_at: at,
      updated_at: at,
      concurrency_group: null,
      concurrency_seq: null,
      waiting_for: null,
      superseded_by: null,
      definition_error: null,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('runs')
      .values(rows.slice(i, i + 500))
      .execute();
  await db
    .updateTable('pipelines')
    .set({ counter: p.counter + count })
    .where('id', '=', p.id)
    .execute();
  return rows.reverse();
}

// What a transition changed between two run snapshots (run-state.ts), for the store to write only that: the
// job rows added or changed, and the stages whose status moved. Pure, like the state machine.
import type { JobRow, RunSnapshot, StageStatus } from './run-types.js';

/** Rows that a transition added or changed, for the store to insert and update. */
export function changedJobs(
  before: RunSnapshot,
  after: RunSnapshot,
): { inserted: JobRow[]; updated: JobRow[] } {
  const old = new Map(before.stages.flatMap((s) => s.jobs).map((j) => [j.id, JSON.stringify(j)]));
  const inserted: JobRow[] = [];
  const updated: JobRow[] = [];
  for (const row of after.stages.flatMap((s) => s.jobs)) {
    const prev = old.get(row.id);
    if (prev === undefined) inserted.push(row);
    else if (prev !== JSON.stringify(row)) updated.push(row);
  }
  return { inserted, updated };
}

/** Stage statuses that changed, by stage name. */
export function changedStages(
  before: RunSnapshot,
  after: RunSnapshot,
): { name: string; status: StageStatus }[] {
  return after.stages
    .filter((s, i) => before.stages[i]?.status !== s.status)
    .map((s) => ({ name: s.name, status: s.status }));
}

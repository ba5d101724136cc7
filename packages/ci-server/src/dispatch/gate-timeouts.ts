// Approval gates with a `timeout` (spec/pipeline-yaml.md: "an unanswered gate cancels the run"): on every
// sweep, gates waiting longer than their job's `approval.timeout` are expired through the state machine
// (`expireGate`: the gate and the run are canceled). The deadline counts from when the gate opened (the
// job run's `started_at`). Bounded per sweep; the next sweep continues.

import { formatDuration } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import type { AssignmentBuilder } from './assignment-builder.js';
import type { JobTransitions } from './job-transitions.js';

const PER_SWEEP = 500;

export interface GateDeps {
  db: StoreDb;
  builder: AssignmentBuilder;
  transitions: JobTransitions;
  systemLine(jobRunId: string, text: string): Promise<void>;
}

/** Expires overdue gates; answers how many were expired. */
export async function expireOverdueGates(deps: GateDeps, now = Date.now()): Promise<number> {
  const gates = await deps.db
    .selectFrom('job_runs as j')
    .innerJoin('runs as r', 'r.id', 'j.run_id')
    .select(['j.id', 'j.name', 'j.started_at', 'r.version_id'])
    .where('j.status', '=', 'awaiting_approval')
    .orderBy('j.started_at')
    .limit(PER_SWEEP)
    .execute();
  let expired = 0;
  for (const gate of gates) {
    const timeout = (await deps.builder.definition(gate.version_id))?.jobs[gate.name]?.approval?.timeout;
    if (!timeout || !gate.started_at || Date.parse(gate.started_at) + timeout > now) continue;
    const message = `the approval gate was not answered within ${formatDuration(timeout)}; the run is canceled`;
    if (await deps.transitions.expireGate(gate.id, message)) {
      expired++;
      await deps.systemLine(gate.id, `[ci] ${message}`).catch(() => undefined);
    }
  }
  return expired;
}

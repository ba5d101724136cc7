// What the run services tell the rest of the process after a transaction commits: the state machine's
// effects (jobs to enqueue, agents to tell to stop, gates opened, runs finished). The dispatcher and the log
// stream subscribe here; nothing is emitted for a transaction that rolled back.
import { EventEmitter } from 'node:events';
import type { Effect } from '../domain/index.js';

export interface RunChange {
  runId: string;
  effects: Effect[];
}

export class RunEvents extends EventEmitter<{ change: [RunChange] }> {
  publish(change: RunChange): void {
    if (change.effects.length > 0) this.emit('change', change);
  }
}

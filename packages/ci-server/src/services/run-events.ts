// What the run services tell the rest of the process after a transaction commits: the state machine's
// effects (jobs to enqueue, agents to tell to stop, gates opened, runs finished). The dispatcher and the log
// stream subscribe here; nothing is emitted for a transaction that rolled back. `remote` carries the changes
// another replica committed (replicas/replica-signals.ts relays them over PostgreSQL NOTIFY): only the
// listeners that act on this process's own memory (the dispatcher's queue, agents connected here, log
// followers here) subscribe to it, so store-writing listeners (fan-in) still act once per change.
import { EventEmitter } from 'node:events';
import type { Effect } from '../domain/index.js';

export interface RunChange {
  runId: string;
  effects: Effect[];
}

export class RunEvents extends EventEmitter<{ change: [RunChange]; remote: [RunChange] }> {
  publish(change: RunChange): void {
    if (change.effects.length > 0) this.emit('change', change);
  }

  /** A change another replica committed and announced. */
  receive(change: RunChange): void {
    if (change.effects.length > 0) this.emit('remote', change);
  }
}

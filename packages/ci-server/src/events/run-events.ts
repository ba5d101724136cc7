// What the run services tell the rest of the process after a transaction commits: the state machine's
// effects (jobs to enqueue, agents to tell to stop, gates opened, stages and runs finished). Nothing is
// emitted for a transaction that rolled back. `remote` carries the changes another replica committed
// (replicas/replica-signals.ts relays them over PostgreSQL NOTIFY): only the listeners that act on this
// process's own memory (the dispatcher's queue, agents connected here, log followers here) hear it, so
// store-writing listeners (fan-in) still act once per change.
//
// A bottom-level module (it knows only domain/'s effect type), so every folder may publish or hear run
// events without depending on another. Who hears them is decided in one place: server.ts, "Who hears run
// events"; no part subscribes itself (test/house/run-event-subscribers.test.ts). The replica relay is handed
// the bus only to `receive` the other replicas' changes into it.
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

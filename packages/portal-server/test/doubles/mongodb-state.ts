// The state of the MongoDB test double: in-memory databases and collections, open cursors, running operations
// (for currentOp/killOp), per-collection delays, the command log and counters, plus the server's error answer
// (CommandError) and the delay a slowed collection's reads wait (maxTimeMS → 50, killOp → 11601).
import { Long, ObjectId } from 'bson';
import { MongoAuth } from './mongodb-auth.js';

export type Doc = Record<string, any>;

export interface Collection {
  docs: Doc[];
  indexes: Doc[];
}

interface OpenCursor {
  ns: string;
  rest: Doc[];
}

interface RunningOp {
  opid: number;
  ns: string;
  command: Doc;
  started: number;
  client: number;
  kill: () => void;
}

export class MongoState {
  readonly dbs = new Map<string, Map<string, Collection>>();
  readonly cursors = new Map<number, OpenCursor>();
  readonly ops = new Map<number, RunningOp>();
  /** Users and authenticated connections (authorization is on once a user exists). */
  readonly auth = new MongoAuth();
  /** `db.collection` → milliseconds every read of it takes. */
  readonly delays = new Map<string, number>();
  /** Every command name received, in order (tests assert what the provider sent). */
  readonly log: Doc[] = [];
  connectionsCreated = 0;
  connectionsCurrent = 0;
  private nextCursor = 1000;
  private nextOp = 1;
  readonly counters = { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 };

  collection(db: string, name: string, create = false): Collection | undefined {
    let d = this.dbs.get(db);
    if (!d) {
      if (!create) return undefined;
      d = new Map();
      this.dbs.set(db, d);
    }
    let c = d.get(name);
    if (!c && create) {
      c = { docs: [], indexes: [{ v: 2, key: { _id: 1 }, name: '_id_' }] };
      d.set(name, c);
    }
    return c;
  }

  /** Seeds a collection (replacing it); documents without _id get an ObjectId. */
  seed(db: string, name: string, docs: Doc[]): void {
    this.dbs.get(db)?.delete(name);
    const c = this.collection(db, name, true)!;
    c.docs = docs.map((d) => ({ _id: d._id ?? new ObjectId(), ...d }));
  }

  cursor(ns: string, docs: Doc[], batchSize: number | undefined, single: boolean): Doc {
    const size = batchSize ?? 101;
    const first = docs.slice(0, size);
    const rest = docs.slice(size);
    let id = 0;
    if (!single && rest.length > 0) {
      id = this.nextCursor++;
      this.cursors.set(id, { ns, rest });
    }
    return { cursor: { firstBatch: first, id: Long.fromNumber(id), ns }, ok: 1 };
  }

  beginOp(ns: string, command: Doc, client: number, kill: () => void): number {
    const opid = this.nextOp++;
    this.ops.set(opid, { opid, ns, command, started: Date.now(), client, kill });
    return opid;
  }
}

export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
  ) {
    super(message);
  }
}

export const sizeOf = (docs: Doc[]) => docs.reduce((n, d) => n + JSON.stringify(d).length, 0);

/** Waits the collection's delay, failing with MaxTimeMSExpired past maxTimeMS or Interrupted on killOp. */
export async function delay(state: MongoState, ns: string, cmd: Doc, client: number): Promise<void> {
  const ms = state.delays.get(ns);
  if (!ms) return;
  const maxTime = Number(cmd.maxTimeMS ?? 0);
  await new Promise<void>((resolve, reject) => {
    let opid = 0;
    const done = (err?: Error) => {
      clearTimeout(work);
      clearTimeout(limit);
      state.ops.delete(opid);
      if (err) reject(err);
      else resolve();
    };
    // Unref'd: a test that closes the double does not wait for a delayed command it no longer cares about.
    const work = setTimeout(() => done(), ms).unref();
    const limit =
      maxTime > 0 && maxTime < ms
        ? setTimeout(
            () => done(new CommandError(50, 'MaxTimeMSExpired', 'operation exceeded time limit')),
            maxTime,
          )
        : undefined;
    opid = state.beginOp(ns, cmd, client, () =>
      done(new CommandError(11601, 'Interrupted', 'operation was interrupted')),
    );
  });
}

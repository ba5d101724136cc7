// The commands of the MongoDB test double (mongodb.ts speaks the wire protocol): the handshake (hello /
// isMaster), server introspection (buildInfo, serverStatus, dbStats, collStats, listDatabases, listCollections,
// listIndexes, currentOp), reads with real cursors (find, getMore, killCursors, aggregate, count, distinct),
// writes (insert, update, delete, createIndexes, aggregate $out/$merge) and killOp. Filters, projections,
// sorts, update operators and pipelines are evaluated by `mingo`. A collection may be given a delay
// (`state.delays`) so a command runs long enough for maxTimeMS (code 50) and killOp (code 11601) to act.
import { Long, ObjectId } from 'bson';
import { Aggregator, find, updateMany, updateOne } from 'mingo';
import { type Collection, CommandError, type Doc, delay, MongoState, sizeOf } from './mongodb-state.js';

export { MongoState };

function hello(connectionId: number): Doc {
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}

const NAME_KEYS = ['find', 'aggregate', 'count', 'distinct', 'insert', 'update', 'delete'];

async function dispatch(state: MongoState, cmd: Doc, client: number): Promise<Doc> {
  const name = Object.keys(cmd)[0];
  const db = String(cmd.$db ?? 'test');
  const collName = NAME_KEYS.includes(name) ? String(cmd[name]) : '';
  const ns = `${db}.${collName}`;
  const docsOf = () => state.collection(db, collName)?.docs ?? [];
  switch (name) {
    case 'hello':
    case 'isMaster':
    case 'ismaster':
      return { ...hello(client), ...state.auth.mechanisms(cmd.saslSupportedMechs) };
    case 'saslStart':
      return state.auth.start(cmd, client);
    case 'saslContinue':
      return state.auth.continue(cmd, client);
    case 'ping':
    case 'endSessions':
      return { ok: 1 };
    case 'buildInfo':
    case 'buildinfo':
      return { version: '7.0.0-double', versionArray: [7, 0, 0, 0], maxBsonObjectSize: 16777216, ok: 1 };
    case 'listDatabases':
      return {
        databases: [...state.dbs].map(([n, d]) => ({
          name: n,
          sizeOnDisk: [...d.values()].reduce((s, c) => s + sizeOf(c.docs), 0),
          empty: d.size === 0,
        })),
        ok: 1,
      };
    case 'listCollections': {
      const list = [...(state.dbs.get(db) ?? new Map<string, Collection>()).keys()].map((n) => ({
        name: n,
        type: 'collection',
        options: {},
        info: { readOnly: false },
      }));
      const filtered = cmd.filter ? find(list, cmd.filter).all() : list;
      return state.cursor(`${db}.$cmd.listCollections`, filtered as Doc[], undefined, true);
    }
    case 'listIndexes': {
      const c = state.collection(db, String(cmd.listIndexes));
      if (!c) throw new CommandError(26, 'NamespaceNotFound', `ns does not exist: ${db}.${cmd.listIndexes}`);
      return state.cursor(`${db}.${cmd.listIndexes}`, c.indexes, undefined, true);
    }
    case 'createIndexes': {
      const c = state.collection(db, String(cmd.createIndexes), true)!;
      for (const ix of cmd.indexes as Doc[]) c.indexes.push({ v: 2, ...ix });
      return { numIndexesAfter: c.indexes.length, ok: 1 };
    }
    case 'dbStats': {
      const d = state.dbs.get(db) ?? new Map<string, Collection>();
      const all = [...d.values()];
      const data = all.reduce((s, c) => s + sizeOf(c.docs), 0);
      return {
        db,
        collections: d.size,
        objects: all.reduce((s, c) => s + c.docs.length, 0),
        dataSize: data,
        storageSize: data,
        indexes: all.reduce((s, c) => s + c.indexes.length, 0),
        ok: 1,
      };
    }
    case 'collStats': {
      const c = state.collection(db, String(cmd.collStats));
      if (!c) throw new CommandError(26, 'NamespaceNotFound', 'ns not found');
      return {
        ns: `${db}.${cmd.collStats}`,
        count: c.docs.length,
        size: sizeOf(c.docs),
        nindexes: c.indexes.length,
        ok: 1,
      };
    }
    case 'serverStatus':
      return {
        host: 'double',
        version: '7.0.0-double',
        uptime: 1,
        connections: {
          current: state.connectionsCurrent,
          available: 1000,
          totalCreated: state.connectionsCreated,
        },
        opcounters: { ...state.counters },
        wiredTiger: { cache: { 'pages read into cache': 5, 'pages requested from the cache': 100 } },
        ok: 1,
      };
    case 'currentOp':
      return {
        inprog: [...state.ops.values()].map((o) => ({
          opid: o.opid,
          active: true,
          op: 'command',
          ns: o.ns,
          command: o.command,
          client: `127.0.0.1:${o.client}`,
          microsecs_running: Long.fromNumber((Date.now() - o.started) * 1000),
        })),
        ok: 1,
      };
    case 'killOp': {
      state.ops.get(Number(cmd.op))?.kill();
      return { info: 'attempting to kill op', ok: 1 };
    }
    case 'find': {
      state.counters.query++;
      await delay(state, ns, cmd, client);
      let cursor = find(docsOf(), cmd.filter ?? {}, cmd.projection);
      if (cmd.sort) cursor = cursor.sort(cmd.sort);
      if (cmd.skip) cursor = cursor.skip(Number(cmd.skip));
      if (cmd.limit) cursor = cursor.limit(Math.abs(Number(cmd.limit)));
      return state.cursor(ns, cursor.all() as Doc[], cmd.batchSize, cmd.singleBatch === true);
    }
    case 'getMore': {
      state.counters.getmore++;
      const id = Number(cmd.getMore);
      const c = state.cursors.get(id);
      if (!c) throw new CommandError(43, 'CursorNotFound', `cursor id ${id} not found`);
      const size = Number(cmd.batchSize ?? 101);
      const batch = c.rest.splice(0, size);
      if (c.rest.length === 0) state.cursors.delete(id);
      return { cursor: { nextBatch: batch, id: Long.fromNumber(c.rest.length ? id : 0), ns: c.ns }, ok: 1 };
    }
    case 'killCursors': {
      const ids = (cmd.cursors as unknown[]).map(Number);
      for (const id of ids) state.cursors.delete(id);
      return {
        cursorsKilled: ids.map((i) => Long.fromNumber(i)),
        cursorsNotFound: [],
        cursorsAlive: [],
        cursorsUnknown: [],
        ok: 1,
      };
    }
    case 'count': {
      await delay(state, ns, cmd, client);
      return { n: find(docsOf(), cmd.query ?? {}).all().length, ok: 1 };
    }
    case 'distinct': {
      await delay(state, ns, cmd, client);
      const values = new Map<string, unknown>();
      for (const d of find(docsOf(), cmd.query ?? {}).all() as Doc[]) {
        const v = String(cmd.key)
          .split('.')
          .reduce<unknown>((o, k) => (o as Doc | undefined)?.[k], d);
        for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined) values.set(JSON.stringify(x), x);
      }
      return { values: [...values.values()], ok: 1 };
    }
    case 'aggregate': {
      state.counters.command++;
      await delay(state, ns, cmd, client);
      const pipeline = cmd.pipeline as Doc[];
      if (pipeline[0]?.$collStats) {
        const docs = docsOf();
        return state.cursor(
          ns,
          [{ ns, storageStats: { count: docs.length, size: sizeOf(docs) } }],
          undefined,
          true,
        );
      }
      const last = pipeline[pipeline.length - 1] ?? {};
      const target = last.$out ?? last.$merge?.into ?? last.$merge;
      const stages = target ? pipeline.slice(0, -1) : pipeline;
      const out = new Aggregator(stages).run(docsOf()) as Doc[];
      if (target) {
        const name = typeof target === 'string' ? target : String(target.coll ?? target);
        const c = state.collection(db, name, true)!;
        c.docs = last.$out ? out : [...c.docs, ...out];
        return state.cursor(ns, [], undefined, true);
      }
      return state.cursor(ns, out, cmd.cursor?.batchSize, false);
    }
    case 'insert': {
      const c = state.collection(db, collName, true)!;
      const writeErrors: Doc[] = [];
      let n = 0;
      (cmd.documents as Doc[]).forEach((d, index) => {
        const doc = { _id: d._id ?? new ObjectId(), ...d };
        if (c.docs.some((x) => JSON.stringify(x._id) === JSON.stringify(doc._id))) {
          writeErrors.push({ index, code: 11000, errmsg: `E11000 duplicate key error collection: ${ns}` });
        } else {
          c.docs.push(doc);
          n++;
        }
      });
      state.counters.insert += n;
      return { n, ...(writeErrors.length ? { writeErrors } : {}), ok: 1 };
    }
    case 'update': {
      const c = state.collection(db, collName, true)!;
      let n = 0;
      let nModified = 0;
      for (const u of cmd.updates as Doc[]) {
        const replacement = !Array.isArray(u.u) && !Object.keys(u.u).some((k) => k.startsWith('$'));
        if (replacement) {
          const i = c.docs.findIndex((d) => find([d], u.q).all().length === 1);
          if (i >= 0) {
            c.docs[i] = { _id: c.docs[i]._id, ...u.u };
            n++;
            nModified++;
          }
          continue;
        }
        const r = u.multi ? updateMany(c.docs, u.q, u.u) : updateOne(c.docs, u.q, u.u);
        n += r.matchedCount;
        nModified += r.modifiedCount;
      }
      state.counters.update += n;
      return { n, nModified, ok: 1 };
    }
    case 'delete': {
      const c = state.collection(db, collName);
      let n = 0;
      for (const del of cmd.deletes as Doc[]) {
        if (!c) break;
        const hits = find(c.docs, del.q).all() as Doc[];
        const gone = new Set(Number(del.limit) === 1 ? hits.slice(0, 1) : hits);
        c.docs = c.docs.filter((d) => !gone.has(d));
        n += gone.size;
      }
      state.counters.delete += n;
      return { n, ok: 1 };
    }
    default:
      throw new CommandError(59, 'CommandNotFound', `no such command: '${name}'`);
  }
}

/** Commands a connection may send before it authenticates. */
const OPEN = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'saslStart',
  'saslContinue',
  'ping',
  'buildInfo',
  'buildinfo',
  'endSessions',
]);
const WRITES = new Set(['insert', 'update', 'delete', 'createIndexes', 'killOp']);

/** Authorization as a server started with it enabled applies it: authenticate first; `read` users only read. */
function authorize(state: MongoState, cmd: Doc, client: number): void {
  const name = Object.keys(cmd)[0];
  if (!state.auth.enabled || OPEN.has(name)) return;
  const role = state.auth.role(client);
  if (!role) throw new CommandError(13, 'Unauthorized', `command ${name} requires authentication`);
  const writingPipeline =
    name === 'aggregate' && JSON.stringify(cmd.pipeline ?? []).match(/"\$(out|merge)"/) !== null;
  if (role === 'read' && (WRITES.has(name) || writingPipeline))
    throw new CommandError(13, 'Unauthorized', `not authorized on ${cmd.$db} to execute command { ${name} }`);
}

/** Runs one command document; every failure becomes the server's {ok: 0, errmsg, code, codeName} answer. */
export async function runCommand(state: MongoState, cmd: Doc, client: number): Promise<Doc> {
  state.log.push(cmd);
  try {
    authorize(state, cmd, client);
    return await dispatch(state, cmd, client);
  } catch (err) {
    if (err instanceof CommandError)
      return { ok: 0, errmsg: err.message, code: err.code, codeName: err.codeName };
    return { ok: 0, errmsg: (err as Error).message, code: 2, codeName: 'BadValue' };
  }
}

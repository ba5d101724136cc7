// A Couchbase test double (no Couchbase server installs here): two loopback HTTP servers speaking the
// documented REST protocol. The management port answers /pools, /pools/default, the cluster map
// /pools/default/nodeServices (which advertises the query port as services.n1ql), the bucket with its
// basicStats and /pools/default/buckets/<b>/scopes; the query port answers POST /query/service
// ({statement, args, scan_consistency, timeout, readonly, client_context_id} as JSON or form fields →
// {requestID, clientContextID, signature, results, status, errors: [{code, msg}], metrics}) and GET
// /admin/vitals. Both check HTTP Basic credentials (401 otherwise). Documents live in memory; statements
// run through the SQL++ subset of couchbase-sql.ts. A statement on a collection named `slow` runs until its
// `timeout` (then status "timeout", error 1080) or until it is deleted from system:active_requests.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Doc, evaluate, type Keyspace, N1qlError, type Store } from './couchbase-sql.js';

export interface CouchbaseDoubleOptions {
  user: string;
  password: string;
  bucket: string;
  /** scope → collection → documents (key → document). */
  data: Record<string, Record<string, Record<string, Doc>>>;
  /** Collections (`scope.collection`) created without a primary index. */
  unindexed?: string[];
  enterprise?: boolean;
}

interface IndexDef {
  name: string;
  ks: Keyspace;
  field?: string;
  state: 'online' | 'deferred';
}

interface Active {
  requestId: string;
  clientContextID: string;
  statement: string;
  started: number;
  stop: (reason: string) => void;
}

/** Numbers beyond 2^53 are kept as BigInt in documents and written as exact JSON digits. */
function exactJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `__big__${v}__` : v)).replace(
    /"__big__(-?\d+)__"/g,
    '$1',
  );
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export class CouchbaseDouble implements Store {
  readonly buckets = new Map<string, Map<string, Map<string, Doc>>>();
  readonly indexes: IndexDef[] = [];
  readonly active = new Map<string, Active>();
  readonly completed: Doc[] = [];
  /** Every request body the query service received (tests read the parameters the provider sent). */
  readonly requests: Record<string, unknown>[] = [];
  private mgmt!: Server;
  private query!: Server;
  mgmtPort = 0;
  queryPort = 0;

  constructor(readonly options: CouchbaseDoubleOptions) {
    const scopes = new Map<string, Map<string, Doc>>();
    for (const [scope, colls] of Object.entries(options.data)) {
      for (const [coll, docs] of Object.entries(colls)) {
        scopes.set(`${scope}.${coll}`, new Map(Object.entries(docs)));
        if (!(options.unindexed ?? []).includes(`${scope}.${coll}`))
          this.indexes.push({
            name: '#primary',
            ks: { bucket: options.bucket, scope, collection: coll },
            state: 'online',
          });
      }
    }
    this.buckets.set(options.bucket, scopes);
  }

  // Store (couchbase-sql.ts)
  collection(ks: Keyspace) {
    return this.buckets.get(ks.bucket)?.get(`${ks.scope}.${ks.collection}`);
  }
  private same(a: Keyspace, b: Keyspace) {
    return a.bucket === b.bucket && a.scope === b.scope && a.collection === b.collection;
  }
  hasIndex(ks: Keyspace, field?: string) {
    return this.indexes.some((i) => this.same(i.ks, ks) && i.state === 'online' && i.field === field);
  }
  createIndex(ks: Keyspace, name: string, field: string | undefined, deferred: boolean) {
    if (!this.collection(ks))
      throw new N1qlError(12003, `Keyspace not found in CB datastore: ${ks.collection}`, 404);
    this.indexes.push({ name, ks, field, state: deferred ? 'deferred' : 'online' });
  }
  buildIndexes(ks: Keyspace, names: string[]) {
    for (const n of names) {
      const idx = this.indexes.find((i) => this.same(i.ks, ks) && i.name === n);
      if (!idx) throw new N1qlError(12016, `Index Not Found - cause: GSI index ${n} not found.`, 404);
      idx.state = 'online';
    }
  }
  system(name: string): Doc[] {
    if (name === 'indexes')
      return this.indexes.map((i) => ({
        name: i.name,
        is_primary: i.field === undefined,
        index_key: i.field ? [`\`${i.field}\``] : [],
        state: i.state,
        ...(i.ks.scope === '_default' && i.ks.collection === '_default'
          ? { keyspace_id: i.ks.bucket }
          : { bucket_id: i.ks.bucket, scope_id: i.ks.scope, keyspace_id: i.ks.collection }),
        namespace_id: 'default',
      }));
    if (name === 'active_requests')
      return [...this.active.values()].map((a) => ({
        requestId: a.requestId,
        clientContextID: a.clientContextID,
        statement: a.statement,
        state: 'running',
        elapsedTime: `${Date.now() - a.started}ms`,
        users: this.options.user,
      }));
    if (name === 'completed_requests') return this.completed.slice(-50);
    throw new N1qlError(12003, `Keyspace not found in CB datastore: system:${name}`, 404);
  }
  killRequest(field: string, value: string): number {
    const found = [...this.active.values()].filter((a) =>
      field.toLowerCase() === 'requestid' ? a.requestId === value : a.clientContextID === value,
    );
    for (const a of found) a.stop('Request has been stopped');
    return found.length;
  }

  private authorized(req: IncomingMessage): boolean {
    const expected = `Basic ${Buffer.from(`${this.options.user}:${this.options.password}`).toString('base64')}`;
    return req.headers.authorization === expected;
  }

  private send(res: ServerResponse, status: number, value: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(exactJson(value));
  }

  private management(req: IncomingMessage, res: ServerResponse) {
    if (!this.authorized(req)) return this.send(res, 401, 'Unauthorized');
    const url = new URL(req.url ?? '/', 'http://x');
    const b = this.options.bucket;
    const scopesOf = () => {
      const by = new Map<string, string[]>();
      for (const key of this.buckets.get(b)?.keys() ?? []) {
        const [s, c] = key.split('.');
        by.set(s, [...(by.get(s) ?? []), c]);
      }
      return [...by].map(([name, cs]) => ({
        name,
        uid: '0',
        collections: cs.map((c) => ({ name: c, uid: '0', maxTTL: 0 })),
      }));
    };
    switch (url.pathname) {
      case '/pools':
        return this.send(res, 200, {
          isAdminCreds: true,
          isEnterprise: this.options.enterprise === true,
          implementationVersion: `7.2.4-7070-${this.options.enterprise ? 'enterprise' : 'community'}`,
          pools: [{ name: 'default', uri: '/pools/default' }],
        });
      case '/pools/default':
        return this.send(res, 200, {
          name: 'default',
          balanced: true,
          nodes: [
            { hostname: `127.0.0.1:${this.mgmtPort}`, status: 'healthy', services: ['kv', 'n1ql', 'index'] },
          ],
          storageTotals: { hdd: { used: 123456789 }, ram: { used: 23456789 } },
        });
      case '/pools/default/nodeServices':
        return this.send(res, 200, {
          rev: 1,
          nodesExt: [
            {
              services: { mgmt: this.mgmtPort, n1ql: this.queryPort, kv: 11210, indexHttp: 9102 },
              thisNode: true,
            },
          ],
        });
      case `/pools/default/buckets/${b}`:
        return this.send(res, 200, {
          name: b,
          bucketType: 'membase',
          basicStats: {
            quotaPercentUsed: 1.5,
            opsPerSec: 200,
            diskFetches: 10,
            itemCount: 42,
            diskUsed: 5_242_880,
            dataUsed: 4_194_304,
            memUsed: 1_048_576,
          },
        });
      case `/pools/default/buckets/${b}/scopes`:
        return this.send(res, 200, { uid: '1', scopes: scopesOf() });
      default:
        return this.send(res, 404, `Requested resource not found: ${url.pathname}`);
    }
  }

  private async queryService(req: IncomingMessage, res: ServerResponse) {
    if (!this.authorized(req))
      return this.send(res, 401, {
        status: 'fatal',
        errors: [{ code: 10000, msg: 'Authentication failure' }],
      });
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/admin/vitals')
      return this.send(res, 200, {
        uptime: '1h0m0s',
        version: '7.2.4-N1QL',
        'request.active.count': this.active.size,
        'request.completed.count': this.completed.length,
        'request.per.sec.1min': 0.5,
        'request.time.mean': '12ms',
        'memory.usage': 1048576,
        cores: 2,
      });
    if (req.method !== 'POST' || url.pathname !== '/query/service') return this.send(res, 404, 'not found');
    const text = await body(req);
    const p: Record<string, unknown> = (req.headers['content-type'] ?? '').includes('json')
      ? JSON.parse(text)
      : Object.fromEntries(new URLSearchParams(text));
    this.requests.push(p);
    const requestID = randomUUID();
    const started = Date.now();
    const statement = String(p.statement ?? '');
    const reply = (
      status: string,
      results: unknown[],
      errors: Array<{ code: number; msg: string }>,
      http: number,
      mutationCount?: number,
    ) => {
      const elapsed = `${Date.now() - started}ms`;
      this.completed.push({
        requestId: requestID,
        statement,
        elapsedTime: elapsed,
        state: status === 'success' ? 'completed' : 'errors',
      });
      this.send(res, http, {
        requestID,
        clientContextID: p.client_context_id,
        signature: { '*': '*' },
        results,
        status,
        ...(errors.length ? { errors } : {}),
        metrics: {
          elapsedTime: elapsed,
          executionTime: elapsed,
          resultCount: results.length,
          resultSize: exactJson(results).length,
          ...(mutationCount !== undefined ? { mutationCount } : {}),
          ...(errors.length ? { errorCount: errors.length } : {}),
        },
      });
    };
    if (p.scan_consistency !== 'request_plus')
      return reply(
        'errors',
        [],
        [{ code: 1065, msg: 'test double: the provider must ask for request_plus scan consistency' }],
        400,
      );
    const word = /^\s*(\w+)/.exec(statement)?.[1]?.toUpperCase() ?? '';
    if (
      (p.readonly === true || p.readonly === 'true') &&
      !['SELECT', 'EXPLAIN', 'INFER', 'ADVISE'].includes(word)
    )
      return reply(
        'fatal',
        [],
        [{ code: 1000, msg: 'The server or request is read-only and cannot accept this write statement.' }],
        400,
      );
    if (/\.`?slow`?(\s|$)/.test(statement)) {
      const timeoutMs = Number(/^(\d+)ms$/.exec(String(p.timeout ?? ''))?.[1] ?? 600_000);
      await new Promise<void>((done) => {
        const timer = setTimeout(() => {
          this.active.delete(requestID);
          reply('timeout', [], [{ code: 1080, msg: `Timeout ${p.timeout} exceeded` }], 500);
          done();
        }, timeoutMs);
        this.active.set(requestID, {
          requestId: requestID,
          clientContextID: String(p.client_context_id ?? ''),
          statement,
          started,
          stop: (reason) => {
            clearTimeout(timer);
            this.active.delete(requestID);
            reply('stopped', [], [{ code: 1058, msg: reason }], 500);
            done();
          },
        });
        req.on('close', () => undefined);
      });
      return;
    }
    try {
      const args = Array.isArray(p.args) ? p.args : typeof p.args === 'string' ? JSON.parse(p.args) : [];
      const out = evaluate(this, statement, args);
      reply('success', out.results, [], 200, out.mutationCount);
    } catch (err) {
      if (!(err instanceof N1qlError)) throw err;
      reply('errors', [], [{ code: err.code, msg: err.message }], err.http);
    }
  }

  async start(): Promise<void> {
    const listen = (handler: (req: IncomingMessage, res: ServerResponse) => unknown) =>
      new Promise<Server>((resolve) => {
        const s = createServer((req, res) => {
          Promise.resolve(handler(req, res)).catch((err: Error) => {
            if (!res.headersSent)
              this.send(res, 500, { status: 'fatal', errors: [{ code: 5000, msg: err.message }] });
          });
        });
        s.listen(0, '127.0.0.1', () => resolve(s));
      });
    this.mgmt = await listen((q, r) => this.management(q, r));
    this.query = await listen((q, r) => this.queryService(q, r));
    this.mgmtPort = (this.mgmt.address() as AddressInfo).port;
    this.queryPort = (this.query.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const a of this.active.values()) a.stop('server stopping');
    await Promise.all([this.mgmt, this.query].map((s) => new Promise((done) => s.close(done))));
  }
}

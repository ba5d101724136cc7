// The MongoDB engine through the HTTP routes, against the wire-level test double (test/doubles/mongodb.ts:
// no MongoDB server installs here; the real `mongodb` driver speaks OP_MSG to it): JSON requests and result
// shapes, paging on real cursors, read-only governance with a bypass corpus (data unchanged afterwards),
// guardrails held for approval, masking by document field, object rules, exports, objects, health, the query
// deadline (maxTimeMS → 408), provider-meta and the bot API.
import { Binary, Long } from 'bson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { type BotHarness, botPortal } from '../bot/harness.js';
import { type MongoDouble, startMongoDouble } from '../doubles/mongodb.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE } from '../query/harness.js';

type Who = typeof ADMIN | typeof ALICE;

let d: MongoDouble;
let h: GovernedHarness;
let connection: Record<string, unknown>;

const BIG = '9007199254740993';

function seed(): void {
  d.state.seed(
    'app',
    'users',
    Array.from({ length: 250 }, (_, i) => ({
      _id: i + 1,
      name: `user${i + 1}`,
      email: `user${i + 1}@corp.example`,
      ssn: `123-45-${String(i).padStart(4, '0')}`,
      profile: { city: i % 2 ? 'Oslo' : 'Lima', email: `home${i + 1}@mail.example` },
      ...(i === 0 ? { big: Long.fromString(BIG), bin: new Binary(Buffer.from([1, 2, 255])) } : {}),
    })),
  );
  d.state.seed('app', 'secrets', [{ _id: 1, token: 'hunter2' }]);
  d.state.seed('app', 'slow', [{ _id: 1 }]);
  d.state.seed(
    'app',
    'events',
    Array.from({ length: 1_200 }, (_, i) => ({ _id: i, n: i % 7 })),
  );
}

/** The whole store as text: equal before and after a refused request means nothing changed. */
const snapshot = () =>
  JSON.stringify([...d.state.dbs].map(([n, db]) => [n, [...db].map(([c, col]) => [c, col.docs])]));

beforeAll(async () => {
  d = await startMongoDouble();
  seed();
  // Long enough that only maxTimeMS or killOp can end a read of it within a test.
  d.state.delays.set('app.slow', 30_000);
  connection = { type: 'mongodb', host: '127.0.0.1', port: d.port, database: 'app' };
  h = await governed([
    managedDs('rw', connection, { guardrails: false }),
    managedDs('ro', connection, { readOnly: true }),
    managedDs('guarded', connection, {}),
    managedDs('approval', connection, { writeApproval: true, approvalsRequired: 1, guardrails: false }),
    managedDs('masked', connection, {
      guardrails: false,
      masking: [
        { column: '*.email', rule: 'partial' },
        { column: 'users.ssn', rule: 'full' },
      ],
      // Collections are placed in the datasource's database by the default schema.
      objectRules: { hidden: ['secrets'], defaultSchema: 'app' },
    }),
  ]);
});

afterAll(async () => {
  await h?.close();
  await d?.close();
});

const query = (id: string, req: unknown, extra: Record<string, unknown> = {}, who: Who = ADMIN) =>
  h.post(
    '/api/db/query',
    { connectionId: id, sql: typeof req === 'string' ? req : JSON.stringify(req), ...extra },
    who,
  );
const find = (filter: unknown = {}, options: unknown = {}) => ({
  collection: 'users',
  operation: 'find',
  filter,
  options,
});

describe('mongodb engine: requests and results', () => {
  it('finds documents: _id first, nested values as JSON, 64-bit integers exact, binary as hex', async () => {
    const r = await query('rw', find({ _id: 1 }));
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.fields).toEqual(['_id', 'name', 'email', 'ssn', 'profile', 'big', 'bin']);
    expect(body.rows[0]).toMatchObject({
      _id: 1,
      profile: { city: 'Lima', email: 'home1@mail.example' },
      big: BIG,
      bin: '0x0102ff',
    });
  });

  it('auto-limits and pages on the server cursor (getMore batches)', async () => {
    const first = await query('rw', find({}, { sort: { _id: 1 } }), { options: { limit: 100 } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().rows).toHaveLength(100);
    expect(first.json().pagination).toMatchObject({ limit: 100, offset: 0, hasMore: true, wasLimited: true });
    const last = await query('rw', find({}, { sort: { _id: 1 } }), { options: { limit: 100, offset: 200 } });
    expect(last.json().rows.map((x: { _id: number }) => x._id)).toEqual(
      Array.from({ length: 50 }, (_, i) => 201 + i),
    );
    expect(last.json().pagination.hasMore).toBe(false);
    // A user limit is kept as written.
    const own = await query('rw', find({}, { limit: 3 }));
    expect(own.json().rows).toHaveLength(3);
    // An unlimited read crosses several server batches.
    const before = d.state.log.filter((c) => 'getMore' in c).length;
    const all = await query(
      'rw',
      { collection: 'events', operation: 'find' },
      { options: { unlimited: true } },
    );
    expect(all.json().rows).toHaveLength(1_200);
    expect(d.state.log.filter((c) => 'getMore' in c).length).toBeGreaterThan(before);
  });

  it('runs findOne, count, distinct and aggregate', async () => {
    const one = await query('rw', { collection: 'users', operation: 'findOne', filter: { name: 'user7' } });
    expect(one.json().rows).toEqual([expect.objectContaining({ _id: 7 })]);
    const count = await query('rw', {
      collection: 'users',
      operation: 'count',
      filter: { 'profile.city': 'Oslo' },
    });
    expect(count.json()).toMatchObject({ fields: ['count'], rows: [{ count: 125 }] });
    const distinct = await query('rw', { collection: 'users', operation: 'distinct', field: 'profile.city' });
    expect(distinct.json().fields).toEqual(['profile.city']);
    expect(
      distinct
        .json()
        .rows.map((x: Record<string, string>) => x['profile.city'])
        .sort(),
    ).toEqual(['Lima', 'Oslo']);
    const agg = await query('rw', {
      collection: 'users',
      operation: 'aggregate',
      pipeline: [{ $group: { _id: '$profile.city', n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
    });
    expect(agg.statusCode, agg.body).toBe(200);
    expect(agg.json().rows).toEqual([
      { _id: 'Lima', n: 125 },
      { _id: 'Oslo', n: 125 },
    ]);
  });

  it('answers malformed requests with 400 QUERY_ERROR (distinct needs a top-level string field)', async () => {
    for (const req of [
      { collection: 'users', operation: 'distinct' },
      { collection: 'users', operation: 'distinct', field: 5 },
      { collection: 'users', operation: 'find', options: { noCursorTimeout: true } },
      { collection: 'users', operation: 'find', update: { $set: { a: 1 } } },
      'not json',
    ]) {
      const r = await query('rw', req);
      expect(r.statusCode, JSON.stringify(req)).toBe(400);
      expect(r.json().code).toBe('QUERY_ERROR');
    }
    expect((await query('rw', find(), { params: [1] })).statusCode).toBe(400);
  });

  it('writes: insert, update, delete on a datasource without gates', async () => {
    const ins = await query('rw', {
      collection: 'scratch',
      operation: 'insertMany',
      documents: [{ _id: 'a', n: 1 }, { _id: 'b', n: 2 }, { when: { $date: '2026-01-01T00:00:00Z' } }],
    });
    expect(ins.statusCode, ins.body).toBe(200);
    expect(ins.json().rowCount).toBe(3);
    const up = await query('rw', {
      collection: 'scratch',
      operation: 'updateMany',
      filter: { n: { $gte: 1 } },
      update: { $inc: { n: 10 } },
    });
    expect(up.json().rowCount).toBe(2);
    const docs = d.state.collection('app', 'scratch')!.docs;
    expect(docs.map((x) => x.n)).toEqual([11, 12, undefined]);
    expect(docs[2].when).toBeInstanceOf(Date);
    const del = await query('rw', { collection: 'scratch', operation: 'deleteOne', filter: { _id: 'a' } });
    expect(del.json().rowCount).toBe(1);
    expect(d.state.collection('app', 'scratch')!.docs).toHaveLength(2);
  });

  it('stops a read at queryTimeout with 408 (the server answers MaxTimeMSExpired)', async () => {
    const r = await h.post(
      '/api/db/query',
      {
        connection: { id: 'slow', ...connection, queryTimeout: 300 },
        sql: JSON.stringify({ collection: 'slow', operation: 'find' }),
      },
      ADMIN,
    );
    expect(r.statusCode, r.body).toBe(408);
    expect(r.json().code).toBe('QUERY_TIMEOUT');
    const sent = d.state.log.filter((c) => c.find === 'slow').at(-1)!;
    expect(Number(sent.maxTimeMS)).toBe(300);
  });

  it('cancels a running read with killOp (found in currentOp by its comment)', async () => {
    const running = query('rw', { collection: 'slow', operation: 'find' }, { queryId: 'm-1' });
    for (let i = 0; i < 800 && d.state.ops.size === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(d.state.ops.size).toBe(1);
    const c = await h.post('/api/db/cancel', { queryId: 'm-1' }, ADMIN);
    expect(c.json()).toEqual({ cancelled: true });
    const r = await running;
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().code).toBe('QUERY_CANCELLED');
    expect(d.state.log.some((cmd) => 'killOp' in cmd)).toBe(true);
    expect(d.state.ops.size).toBe(0);
  });

  it('a server that is not there is 503', async () => {
    const r = await h.post(
      '/api/db/query',
      {
        connection: { id: 'down', type: 'mongodb', host: '127.0.0.1', port: 1, database: 'app' },
        sql: JSON.stringify(find()),
      },
      ADMIN,
    );
    expect(r.statusCode, r.body).toBe(503);
  });

  it('accepts a connection string and authSource; refuses another scheme', async () => {
    const cs = { id: 'cs', type: 'mongodb', connectionString: `${d.uri}/app` };
    const r = await h.post('/api/db/query', { connection: cs, sql: JSON.stringify(find({ _id: 2 })) }, ADMIN);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows[0]._id).toBe(2);
    const bad = await h.post(
      '/api/db/query',
      { connection: { ...cs, id: 'bad', connectionString: 'http://x' }, sql: '{}' },
      ADMIN,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('CONFIGURATION_ERROR');
  });
});

describe('mongodb engine: governance', () => {
  it('a read-only datasource runs reads and refuses writes (403 READ_ONLY)', async () => {
    expect((await query('ro', find({ _id: 1 }))).statusCode).toBe(200);
    const before = snapshot();
    const r = await query('ro', {
      collection: 'users',
      operation: 'updateOne',
      filter: { _id: 1 },
      update: { $set: { name: 'x' } },
    });
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('READ_ONLY');
    expect(snapshot()).toBe(before);
  });

  const bypasses: string[] = [
    '{"collection":"users","operation":"deleteMany","filter":{}}',
    '{"collection":"users","operation":"deleteOne","filter":{"_id":1}}',
    '{"collection":"users","operation":"insertOne","documents":{"x":1}}',
    '{"collection":"users","operation":"updateMany","filter":{},"update":{"$set":{"name":"x"}}}',
    '{"collection":"users","operation":"updateOne","filter":{"_id":1},"update":[{"$set":{"name":"x"}}]}',
    // Case and spacing of the operation name: unknown operations fail closed.
    '{"collection":"users","operation":"DeleteMany","filter":{}}',
    '{"collection":"users","operation":" deleteMany","filter":{}}',
    '{"collection":"users","operation":"drop"}',
    '{"collection":"users","operation":"bulkWrite"}',
    // Duplicate keys: a reader keeping the first and one keeping the last would disagree.
    '{"collection":"users","operation":"find","operation":"deleteMany","filter":{}}',
    '{"collection":"users","operation":"deleteMany","operation":"find","filter":{}}',
    '{"collection":"users","operation":"find","filter":{"a":1,"a":2}}',
    // Unicode escapes decode before anything judges the text.
    '{"collection":"users","operation":"delete\\u004dany","filter":{}}',
    '{"collection":"users","operation":"find","__proto__":{"operation":"deleteMany"}}',
    // Writing aggregation stages, also nested.
    '{"collection":"users","operation":"aggregate","pipeline":[{"$out":"users"}]}',
    '{"collection":"users","operation":"aggregate","pipeline":[{"$match":{}},{"$merge":{"into":"users"}}]}',
    '{"collection":"users","operation":"aggregate","pipeline":[{"$facet":{"a":[{"$out":"users"}]}}]}',
    // Server-side JavaScript fails closed.
    '{"collection":"users","operation":"find","filter":{"$where":"this.name = 1"}}',
    '{"collection":"users","operation":"find","filter":{"$expr":{"$function":{"body":"function(){}","args":[],"lang":"js"}}}}',
    '{"collection":"users","operation":"aggregate","pipeline":[{"$group":{"_id":1,"a":{"$accumulator":{}}}}]}',
    '{"collection":"users","operation":"find","filter":{"$wher\\u0065":"sleep(1)"}}',
    '{"collection":"users","operation":"updateOne","filter":{"_id":-1},"update":{"$set":{"a":1}},"options":{"upsert":true}}',
    '{"collection":"users","operation":"find","options":{"writeConcern":{"w":0}}}',
    '\ufeff{"collection":"users","operation":"deleteMany","filter":{"_id":1}}',
    // Two requests in one text, arrays and other shapes.
    '{"collection":"users","operation":"find"}{"collection":"users","operation":"deleteMany","filter":{}}',
    '[{"collection":"users","operation":"deleteMany","filter":{}}]',
    'db.users.deleteMany({})',
  ];
  it.each(bypasses)('read-only refuses %s and nothing changes', async (sql) => {
    const before = snapshot();
    const r = await query('ro', sql);
    expect(r.statusCode, r.body).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
    expect(snapshot()).toBe(before);
  });

  it('multi-query runs the one request of the text and holds the same gates', async () => {
    const read = await h.post(
      '/api/db/multi-query',
      { connectionId: 'ro', sql: JSON.stringify(find({ _id: 9 })) },
      ADMIN,
    );
    expect(read.statusCode, read.body).toBe(200);
    expect(JSON.stringify(read.json())).toMatch(/user9@corp\.example/);
    const before = snapshot();
    const write = await h.post(
      '/api/db/multi-query',
      {
        connectionId: 'ro',
        sql: JSON.stringify({ collection: 'users', operation: 'deleteMany', filter: {} }),
      },
      ADMIN,
    );
    expect(write.statusCode).toBe(403);
    expect(snapshot()).toBe(before);
  });

  it('classifies with MongoDB notions of read and write and maps the guardrails', async () => {
    const c = async (req: unknown) => (await classifyScript(JSON.stringify(req), 'mongodb')).statements[0];
    expect((await c(find())).kind).toBe('read');
    expect((await c({ collection: 'u', operation: 'deleteMany', filter: {} })).guardrails).toEqual([
      'delete_without_where',
      'delete',
    ]);
    expect((await c({ collection: 'u', operation: 'deleteOne', filter: { a: 1 } })).guardrails).toEqual([
      'delete',
    ]);
    expect(
      (await c({ collection: 'u', operation: 'updateMany', update: { $set: { a: 1 } } })).guardrails,
    ).toEqual(['update_without_where']);
    const out = await c({
      collection: 'u',
      operation: 'aggregate',
      pipeline: [{ $lookup: { from: 'v' } }, { $out: 'w' }],
    });
    expect(out).toMatchObject({ kind: 'write', guardrails: ['drop'] });
    expect(out.objects.map((o) => `${o.name}:${o.access}`)).toEqual(['u:write', 'v:read', 'w:write']);
    expect(await c({ collection: 'u', operation: 'frobnicate' })).toMatchObject({
      kind: 'write',
      doubtful: true,
    });
    expect(await c({ collection: 'u', operation: 'find', filter: { $where: '1' } })).toMatchObject({
      kind: 'write',
      doubtful: true,
    });
  });

  it('a guarded datasource holds deletes and filterless updates for approval; approved, they run', async () => {
    const before = snapshot();
    const del = await query(
      'guarded',
      { collection: 'users', operation: 'deleteOne', filter: { _id: 250 } },
      {},
      ALICE,
    );
    expect(del.statusCode).toBe(403);
    expect(del.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'delete' });
    const all = await query('guarded', { collection: 'users', operation: 'deleteMany', filter: {} });
    expect(all.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'delete_without_where' });
    const up = await query('guarded', {
      collection: 'users',
      operation: 'updateMany',
      update: { $set: { x: 1 } },
    });
    expect(up.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'update_without_where' });
    expect(snapshot()).toBe(before);
    await h.approvals.decide({ id: del.json().approval.id, reviewer: ADMIN, decision: 'approve' });
    const ran = await query(
      'guarded',
      { collection: 'users', operation: 'deleteOne', filter: { _id: 250 } },
      {},
      ALICE,
    );
    expect(ran.statusCode, ran.body).toBe(200);
    expect(d.state.collection('app', 'users')!.docs).toHaveLength(249);
    d.state
      .collection('app', 'users')!
      .docs.push({ _id: 250, name: 'user250', email: 'user250@corp.example' });
  });

  it('write approval holds an insert until a reviewer approves', async () => {
    const req = { collection: 'scratch', operation: 'insertOne', documents: { _id: 'held' } };
    const held = await query('approval', req, {}, ALICE);
    expect(held.json()).toMatchObject({ code: 'APPROVAL_REQUIRED' });
    const present = () => (d.state.collection('app', 'scratch')?.docs ?? []).some((x) => x._id === 'held');
    expect(present()).toBe(false);
    await h.approvals.decide({ id: held.json().approval.id, reviewer: ADMIN, decision: 'approve' });
    expect((await query('approval', req, {}, ALICE)).statusCode).toBe(200);
    expect(present()).toBe(true);
  });

  it('masks document fields by name at any depth, and whole fields by collection rule', async () => {
    const r = await query('masked', find({ _id: 3 }));
    expect(r.statusCode, r.body).toBe(200);
    const row = r.json().rows[0];
    expect(row.email).toBe('u***@corp.example');
    expect(row.profile).toEqual({ city: 'Lima', email: 'h***@mail.example' });
    expect(row.ssn).toBe('****');
    expect(row.name).toBe('user3');
  });

  it('masking follows distinct, computed projections and pipelines that compute fields', async () => {
    const distinct = await query('masked', {
      collection: 'users',
      operation: 'distinct',
      field: 'profile.email',
      filter: { _id: 1 },
    });
    expect(distinct.json().rows).toEqual([{ 'profile.email': 'h***@mail.example' }]);
    const projected = await query('masked', find({ _id: 1 }, { projection: { x: '$email', name: 1 } }));
    expect(projected.statusCode, projected.body).toBe(200);
    expect(projected.body).not.toMatch(/user1@corp/);
    // A pipeline that computes fields masks every output field (it cannot be traced to stored names).
    const grouped = await query('masked', {
      collection: 'users',
      operation: 'aggregate',
      pipeline: [
        { $match: { _id: { $lte: 2 } } },
        { $group: { _id: '$profile.city' } },
        { $sort: { _id: 1 } },
      ],
    });
    expect(grouped.statusCode, grouped.body).toBe(200);
    expect(grouped.json().rows).toEqual([{ _id: '****' }, { _id: '****' }]);
    // Stages that keep stored names are masked by name only.
    const plain = await query('masked', {
      collection: 'users',
      operation: 'aggregate',
      pipeline: [{ $match: { _id: 1 } }, { $project: { name: 1, email: 1 } }],
    });
    expect(plain.json().rows).toEqual([{ _id: 1, name: 'user1', email: 'u***@corp.example' }]);
  });

  it('refuses masked fields that would steer the result (filters, sorts, pipeline references)', async () => {
    const before = snapshot();
    for (const req of [
      find({ email: { $regex: '^user1' } }),
      find({ 'profile.email': 'home1@mail.example' }),
      find({ $expr: { $eq: ['$ssn', '123-45-0000'] } }),
      find({}, { sort: { ssn: 1 } }),
      { collection: 'users', operation: 'count', filter: { ssn: { $gt: '123-45-0100' } } },
      {
        collection: 'users',
        operation: 'aggregate',
        pipeline: [{ $group: { _id: '$ssn', n: { $sum: 1 } } }],
      },
      {
        collection: 'users',
        operation: 'aggregate',
        pipeline: [{ $project: { x: { $objectToArray: '$$ROOT' } } }],
      },
      { collection: 'users', operation: 'deleteMany', filter: { email: 'user1@corp.example' } },
    ]) {
      const r = await query('masked', req, {}, ALICE);
      expect(r.statusCode, JSON.stringify(req)).toBe(403);
      expect(r.json().code).toBe('MASKED_COLUMN_PREDICATE');
    }
    expect(snapshot()).toBe(before);
    expect((await query('masked', find({ name: 'user1' }, { sort: { _id: 1 } }), {}, ALICE)).statusCode).toBe(
      200,
    );
  });

  it('object rules hide a collection from requests and from the object lists', async () => {
    const r = await query('masked', { collection: 'secrets', operation: 'find' }, {}, ALICE);
    expect(r.statusCode, r.body).toBe(403);
    expect(r.body).not.toMatch(/hunter2/);
    const viaLookup = await query(
      'masked',
      {
        collection: 'users',
        operation: 'aggregate',
        pipeline: [{ $lookup: { from: 'secrets', localField: '_id', foreignField: '_id', as: 's' } }],
      },
      {},
      ALICE,
    );
    expect(viaLookup.statusCode).toBe(403);
    const viaUnion = await query(
      'masked',
      { collection: 'users', operation: 'aggregate', pipeline: [{ $unionWith: { coll: 'secrets' } }] },
      {},
      ALICE,
    );
    expect(viaUnion.statusCode).toBe(403);
    expect(viaUnion.body).not.toMatch(/hunter2/);
    expect((await query('masked', find({ _id: 1 }), {}, ALICE)).statusCode).toBe(200);
    const list = await h.post('/api/db/objects/list', { connectionId: 'masked' }, ALICE);
    expect(list.statusCode, list.body).toBe(200);
    const names = list.json().objects.map((o: { name: string }) => o.name);
    expect(names).toContain('users');
    expect(names).not.toContain('secrets');
  });
});

describe('mongodb engine: export', () => {
  const exp = (id: string, req: unknown, format: string) =>
    h.post('/api/db/export', { connectionId: id, sql: JSON.stringify(req), format, tabName: 'users' }, ADMIN);

  it('exports json and csv with flattened, masked columns', async () => {
    const csv = await exp('masked', find({ _id: { $lte: 2 } }, { sort: { _id: 1 } }), 'csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['x-export-rows']).toBe('2');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('_id,name,email,ssn,profile.city,profile.email,big,bin');
    expect(lines[2]).toBe('2,user2,u***@corp.example,****,Oslo,h***@mail.example,,');
    const json = await exp('rw', find({ _id: 1 }), 'json');
    expect(json.statusCode, json.body).toBe(200);
    expect(JSON.parse(json.body)[0]).toMatchObject({ 'profile.city': 'Lima', big: BIG });
  });

  it('answers 400 with a reason for SQL formats and for writes', async () => {
    const sql = await exp('rw', find(), 'sql-insert');
    expect(sql.statusCode).toBe(400);
    expect(sql.body).toMatch(/json or csv/);
    const before = snapshot();
    const write = await exp('rw', { collection: 'users', operation: 'deleteMany', filter: {} }, 'json');
    expect(write.statusCode).toBe(400);
    const out = await exp(
      'rw',
      { collection: 'users', operation: 'aggregate', pipeline: [{ $out: 'x' }] },
      'csv',
    );
    expect(out.statusCode).toBe(400);
    expect(snapshot()).toBe(before);
  });
});

describe('mongodb engine: objects, health, connection', () => {
  it('lists collections with counts, describes fields and indexes, counts kinds', async () => {
    await d.state
      .collection('app', 'users')!
      .indexes.push({ v: 2, key: { email: 1 }, name: 'email_1', unique: true });
    const list = await h.post('/api/db/objects/list', { connectionId: 'rw' }, ADMIN);
    expect(list.json().objects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: ['app', 'users'], name: 'users', kind: 'collection', rowCount: 250 }),
      ]),
    );
    const desc = await h.post(
      '/api/db/objects/describe',
      { connectionId: 'rw', path: ['app', 'users'] },
      ADMIN,
    );
    expect(desc.statusCode, desc.body).toBe(200);
    const cols = desc.json().columns as Array<{ name: string; type: string; isPrimary: boolean }>;
    expect(cols.find((c) => c.name === '_id')).toMatchObject({ isPrimary: true });
    expect(cols.find((c) => c.name === 'profile.city')).toMatchObject({ type: 'string' });
    expect(cols.find((c) => c.name === 'big')).toMatchObject({ type: 'long', nullable: true });
    expect(desc.json().indexes).toEqual(
      expect.arrayContaining([{ name: 'email_1', columns: ['email'], unique: true }]),
    );
    const counts = await h.post('/api/db/objects/counts', { connectionId: 'rw' }, ADMIN);
    expect(counts.statusCode, counts.body).toBe(200);
    expect(JSON.stringify(counts.json())).toMatch(/"kind":"collection"/);
  });

  it('answers health from serverStatus, dbStats and currentOp; test-connection from buildInfo', async () => {
    const health = await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN);
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json().activeConnections).toBeGreaterThanOrEqual(1);
    expect(health.json().databaseSize).toMatch(/bytes|kB/);
    expect(health.json().cacheHitRatio).toBe('95.00%');
    const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...connection } }, ADMIN);
    expect(t.statusCode, t.body).toBe(200);
    expect(t.body).toMatch(/7\.0\.0-double/);
  });

  it('provider-meta states the truthful flags', async () => {
    const r = await h.post('/api/db/provider-meta', { connection: { id: 'pm', ...connection } }, ADMIN);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.body).toMatch(/"supportsExplain":false/);
    expect(r.body).toMatch(/"supportsCancel":true/);
    expect(r.body).toMatch(/"supportsTransactions":false/);
  });
});

describe('mongodb engine: credentials (SCRAM-SHA-256 in the double)', () => {
  beforeAll(() => {
    d.state.auth.users.set('people.reader', { password: 'r3ad-only', role: 'read' });
    d.state.auth.users.set('admin.writer', { password: 'wr1te', role: 'readWrite' });
  });
  afterAll(() => {
    d.state.auth.users.clear();
    d.state.auth.sessions.clear();
  });
  const as = (id: string, extra: Record<string, unknown>, req: unknown) =>
    h.post('/api/db/query', { connection: { id, ...connection, ...extra }, sql: JSON.stringify(req) }, ADMIN);

  it('authenticates against authSource; a wrong password or database is 503 AUTHENTICATION_ERROR', async () => {
    const ok = await as(
      'reader',
      { user: 'reader', password: 'r3ad-only', authSource: 'people' },
      find({ _id: 1 }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().rows[0]._id).toBe(1);
    const cs = await h.post(
      '/api/db/query',
      {
        connection: {
          id: 'writer-cs',
          type: 'mongodb',
          connectionString: `mongodb://writer:wr1te@127.0.0.1:${d.port}/app?authSource=admin`,
        },
        sql: JSON.stringify(find({ _id: 2 })),
      },
      ADMIN,
    );
    expect(cs.statusCode, cs.body).toBe(200);
    for (const extra of [
      { user: 'reader', password: 'wrong', authSource: 'people' },
      { user: 'reader', password: 'r3ad-only' },
    ]) {
      const r = await as(`bad-${extra.password}-${extra.authSource}`, extra, find());
      expect(r.statusCode, r.body).toBe(503);
      expect(r.json().code).toBe('AUTHENTICATION_ERROR');
      expect(r.body).not.toMatch(/r3ad-only|wrong/);
    }
  });

  it('a read-only user makes the server itself refuse writes the policy lets through', async () => {
    const before = snapshot();
    const creds = { user: 'reader', password: 'r3ad-only', authSource: 'people' };
    for (const req of [
      { collection: 'users', operation: 'deleteMany', filter: { _id: 1 } },
      { collection: 'users', operation: 'aggregate', pipeline: [{ $merge: { into: 'users' } }] },
    ]) {
      const r = await as('reader', creds, req);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.body).toMatch(/not authorized/);
    }
    expect(snapshot()).toBe(before);
  });
});

describe('mongodb engine: bot API', () => {
  let bot: BotHarness;
  let secret: string;
  beforeAll(async () => {
    const entry = (id: string, policy: string) =>
      [
        `  - id: ${id}`,
        '    type: mongodb',
        '    host: 127.0.0.1',
        `    port: ${d.port}`,
        '    database: app',
        '    roles: [admin, user]',
        `    policy: ${policy}`,
        '',
      ].join('\n');
    bot = await botPortal({
      datasources: () =>
        entry('mdb', '{ writeApproval: true, masking: [{ column: "*.email", rule: partial }] }') +
        entry('mro', '{ readOnly: true }'),
    });
    secret = (await bot.token({ name: 'mongo-bot' })).secret;
  });
  afterAll(async () => {
    await bot?.close();
  });
  const submit = (id: string, req: unknown) =>
    bot.submit(secret, { datasourceId: id, statement: JSON.stringify(req), onBehalfOf: 'alice@example.com' });

  it('a read runs at once with masked documents', async () => {
    const res = await submit('mdb', find({ _id: 4 }));
    expect(res.statusCode, res.body).toBe(200);
    const e = res.json().execution.execution;
    expect(e).toMatchObject({ status: 'done', rowCount: 1 });
    expect(e.rows[0]).toMatchObject({
      _id: 4,
      email: 'u***@corp.example',
      profile: { email: 'h***@mail.example' },
    });
  });

  it('a held write changes nothing until approved and run by the worker', async () => {
    const req = {
      collection: 'users',
      operation: 'updateOne',
      filter: { _id: 5 },
      update: { $set: { name: 'bot' } },
    };
    const res = await submit('mdb', req);
    expect(res.statusCode, res.body).toBe(202);
    const rec = res.json().execution;
    await bot.drain();
    const user5 = () => d.state.collection('app', 'users')!.docs.find((x) => x._id === 5)!.name;
    expect(user5()).toBe('user5');
    expect((await bot.decide(rec.approvalId, 'approve')).statusCode).toBe(200);
    await bot.drain();
    expect((await bot.read(secret, rec.id)).json().execution).toMatchObject({ status: 'done', rowCount: 1 });
    expect(user5()).toBe('bot');
  });

  it('a write on a read-only datasource is 403 and nothing changes', async () => {
    const before = snapshot();
    const res = await submit('mro', { collection: 'users', operation: 'deleteMany', filter: {} });
    expect(res.statusCode).toBe(403);
    expect(snapshot()).toBe(before);
  });
});

// Property-based bad-input test (issue 12): walks every operation of the control plane's own OpenAPI
// description (GET /api/v1/openapi.json) and sends generated mistakes — type-confused, missing and oversized
// values (1 MB strings, 10,000-deep JSON, huge numbers), malformed numeric query values, over-long path
// parameters, invalid UTF-8 and wrong content types — with and without credentials. Every answer must be a
// 4xx `{error}` within 5 s; nothing may be written; the service must be healthy afterwards. Bounded: a fixed
// number of generated cases per operation (FUZZ_RUNS), well under a minute in all.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { asSession, login, startAuthServer } from '../auth/helpers.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const DEADLINE_MS = 5_000;
/** Operations that answer 2xx to an empty request by design, or end the test's own session. */
const SKIP = new Set(['POST /auth/logout']);
/** Tables whose rows a refused request may legitimately add: the audit trail of refusals, sign-in limits. */
const UNCOUNTED = /audit|session|login|leader|lease|cron_state|poll|kysely|deliveries/;

let server: CiServer;
let admin: Record<string, string>;
const operations: { method: string; path: string; op: any }[] = [];

beforeAll(async () => {
  server = await startAuthServer();
  admin = asSession(await login(server, 'admin', 'admin-password-for-tests'));
  const doc = (await server.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const key = `${method.toUpperCase()} ${path}`;
      if (!SKIP.has(key)) operations.push({ method: method.toUpperCase(), path, op });
    }
});
afterAll(async () => {
  await server?.close();
});

async function rowCounts(): Promise<Record<string, number>> {
  const db = server.database.db;
  const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
    db,
  );
  const out: Record<string, number> = {};
  for (const { name } of rows) {
    if (UNCOUNTED.test(name) || name.startsWith('sqlite_')) continue;
    const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(db);
    out[name] = Number(r.rows[0].n);
  }
  return out;
}

const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const MB_STRING = 'x'.repeat(1024 * 1024);

/** A value of the wrong JSON type for a property declared as `schema`. */
const wrongValue = (schema: any) => {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  const all = [123, -1e308, 2 ** 64, true, null, ['x'], { a: 1 }, 'text', MB_STRING];
  const wrong = all.filter((v) =>
    type === 'string'
      ? typeof v !== 'string' || v === MB_STRING
      : type === 'integer' || type === 'number'
        ? typeof v !== 'number'
        : type === 'boolean'
          ? typeof v !== 'boolean'
          : type === 'array'
            ? !Array.isArray(v)
            : type === 'object'
              ? typeof v !== 'object' || v === null || Array.isArray(v)
              : v === MB_STRING,
  );
  return fc.constantFrom(...(wrong.length > 0 ? wrong : [MB_STRING]));
};

function bodySchema(op: any): any {
  return op.requestBody?.content?.['application/json']?.schema;
}

interface Mistake {
  what: string;
  payload?: string | Buffer;
  contentType?: string;
  query?: string;
  longParam?: boolean;
}

/** Generated mistakes for one operation. */
function mistakes(op: any, method: string): fc.Arbitrary<Mistake> | undefined {
  const options: fc.Arbitrary<Mistake>[] = [];
  const params: any[] = op.parameters ?? [];
  if (params.some((p) => p.in === 'path'))
    options.push(fc.constant({ what: 'path parameter of 5,000 characters', longParam: true }));
  const numeric = params.filter((p) => p.in === 'query' && ['integer', 'number'].includes(p.schema?.type));
  if (numeric.length > 0)
    options.push(
      fc
        .record({
          name: fc.constantFrom(...numeric.map((p) => p.name as string)),
          value: fc.constantFrom(
            '1e999',
            '1.5',
            '-0',
            'NaN',
            '0x10',
            'Infinity',
            '-Infinity',
            '12345678901234567890',
            '',
            'abc',
          ),
        })
        .map(({ name, value }) => ({
          what: `query ${name}=${value}`,
          query: `${name}=${encodeURIComponent(value)}`,
        })),
    );
  if (['POST', 'PUT', 'PATCH'].includes(method)) {
    const schema = bodySchema(op);
    const props = Object.entries<any>(schema?.properties ?? {});
    if (props.length > 0)
      options.push(
        fc
          .constantFrom(...props)
          .chain(([name, s]) => wrongValue(s).map((v) => ({ name, v })))
          .map(({ name, v }) => ({
            what: `body ${name} of a wrong type or size`,
            payload: JSON.stringify({ [name]: v }),
          })),
      );
    if (schema?.required?.length > 0) options.push(fc.constant({ what: 'empty object body', payload: '{}' }));
    options.push(
      fc.constant({ what: '10,000-deep JSON', payload: deepJson(10_000) }),
      fc.constant({
        what: 'invalid UTF-8',
        payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]),
      }),
      fc.constant({ what: 'malformed JSON', payload: '{"a": ' }),
      fc.constant({ what: 'JSON scalar body', payload: '1e999' }),
      fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded').map((t) => ({
        what: `content type ${t}`,
        payload: 'a=1&b=2',
        contentType: t,
      })),
    );
  }
  // An operation that takes no input at all (health, version, lists without filters) has no mistake to
  // make: unknown query parameters are ignored there, as by most HTTP APIs.
  return options.length > 0 ? fc.oneof(...options) : undefined;
}

function urlOf(path: string, m: Mistake): string {
  const filled = path.replace(/\{[^}]+\}/g, () =>
    m.longParam ? 'a'.repeat(5_000) : '01900000-0000-7000-8000-00000000dead',
  );
  return m.query ? `${filled}?${m.query}` : filled;
}

describe('every route of the OpenAPI description refuses generated mistakes', () => {
  it('answers 4xx {error} in time, writes nothing, stays healthy', async () => {
    expect(operations.length).toBeGreaterThan(50);
    const before = await rowCounts();
    const failures: string[] = [];
    let fuzzed = 0;
    for (const { method, path, op } of operations) {
      const generated = mistakes(op, method);
      if (!generated) continue;
      fuzzed++;
      await fc.assert(
        fc.asyncProperty(generated, fc.boolean(), async (m, authed) => {
          const started = Date.now();
          const res = await server.app.inject({
            method: method as 'GET',
            url: urlOf(path, m),
            headers: {
              ...(authed ? admin : {}),
              ...(m.payload !== undefined ? { 'content-type': m.contentType ?? 'application/json' } : {}),
            },
            ...(m.payload !== undefined ? { payload: m.payload } : {}),
          });
          const took = Date.now() - started;
          const where = `${method} ${path} (${m.what}, ${authed ? 'admin' : 'anonymous'}) -> ${res.statusCode} ${res.body.slice(0, 200)}`;
          let body: any;
          try {
            body = res.json();
          } catch {
            body = undefined;
          }
          const ok =
            res.statusCode >= 400 &&
            res.statusCode < 500 &&
            body &&
            typeof body.error === 'string' &&
            !/FST_/.test(res.body) &&
            took < DEADLINE_MS;
          if (!ok) failures.push(where);
          return true;
        }),
        { numRuns: RUNS, seed: 12 },
      );
    }
    expect(failures).toEqual([]);
    expect(fuzzed).toBeGreaterThan(50);
    expect(await rowCounts()).toEqual(before);
    expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/v1/projects', headers: admin })).statusCode,
    ).toBe(200);
  }, 60_000);
});

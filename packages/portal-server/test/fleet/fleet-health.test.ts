// POST /api/admin/fleet-health: the exact 401 body without a session, 403 for a non-admin, 400 without a
// `connections` array, and per-connection results against the harness's real PostgreSQL and a closed port.
import { freePort } from '@app/kit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FLEET_CONCURRENCY, mapBounded } from '../../src/http/fleet-health.js';
import { isOpenRoute } from '../../src/http/guard.js';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, ORIGIN, portal, sessionFor, USER } from '../auth/helpers.js';

let server: PortalServer;
let admin: string;
let user: string;

beforeAll(async () => {
  server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password });
  admin = `auth-token=${await sessionFor(server, ADMIN)}`;
  user = `auth-token=${await sessionFor(server, USER)}`;
});
afterAll(() => server?.close());

const post = (payload: unknown, cookie?: string, extra: Record<string, string> = {}) =>
  server.app.inject({
    method: 'POST',
    url: '/api/admin/fleet-health',
    payload: payload as object,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}), ...extra },
  });

function pgDescriptor(id: string) {
  const u = new URL(inject('services').postgresUrl);
  return {
    id,
    type: 'postgres',
    host: u.hostname,
    port: Number(u.port),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1),
  };
}

describe('fleet health', () => {
  it('answers exactly 401 {"error":"Authentication required"} without a session, even to a non-JSON body', async () => {
    expect(isOpenRoute('POST', '/api/admin/fleet-health')).toBe(true);
    expect(isOpenRoute('GET', '/api/admin/fleet-health')).toBe(false);
    const r = await post({ connections: [] });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ error: 'Authentication required' });
    const raw = await server.app.inject({
      method: 'POST',
      url: '/api/admin/fleet-health',
      payload: 'not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.statusCode).toBe(401);
    expect(raw.json()).toEqual({ error: 'Authentication required' });
  });

  it('answers 403 in the portal shape to a non-admin', async () => {
    const r = await post({ connections: [] }, user);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({ error: 'Admin access required', code: 'FORBIDDEN', statusCode: 403 });
  });

  it('answers 400 when connections is missing or not an array', async () => {
    for (const body of [{}, { connections: 'x' }, { connections: { id: 'a' } }]) {
      const r = await post(body, admin);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400 });
    }
    expect((await post({ connections: new Array(101).fill({ id: 'x' }) }, admin)).statusCode).toBe(400);
  });

  it('tests each connection and reports ok or error in request order', async () => {
    const closed = await freePort();
    const r = await post(
      {
        connections: [
          pgDescriptor('pg-up'),
          { ...pgDescriptor('pg-down'), port: closed },
          { id: 'weird', type: 'no-such-engine' },
          pgDescriptor('pg-up-2'),
          { type: 'postgres', host: '127.0.0.1' },
        ],
      },
      admin,
    );
    expect(r.statusCode, r.body).toBe(200);
    const results = r.json().results;
    expect(results.map((x: { connectionId: string | null }) => x.connectionId)).toEqual([
      'pg-up',
      'pg-down',
      'weird',
      'pg-up-2',
      null,
    ]);
    expect(results[0]).toMatchObject({ status: 'ok', engine: 'postgres', latencyMs: expect.any(Number) });
    expect(results[0].error).toBeUndefined();
    expect(results[1]).toMatchObject({
      status: 'error',
      latencyMs: expect.any(Number),
      error: expect.any(String),
    });
    expect(results[2]).toMatchObject({ status: 'error', error: expect.any(String) });
    expect(results[3]).toMatchObject({ status: 'ok' });
    expect(results[4]).toMatchObject({ status: 'error', error: expect.stringMatching(/id/) });
  });
});

describe('mapBounded', () => {
  it('never runs more than the limit at once and keeps the order', async () => {
    let inFlight = 0;
    let peak = 0;
    const gates: Array<() => void> = [];
    const run = mapBounded([1, 2, 3, 4, 5, 6, 7, 8, 9], FLEET_CONCURRENCY, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise<void>((resolve) => gates.push(resolve));
      inFlight--;
      return n * 2;
    });
    // Release one waiting task at a time until all have run.
    for (let released = 0; released < 9; released++) {
      while (gates.length === 0) await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    expect(await run).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(peak).toBe(FLEET_CONCURRENCY);
  });
});

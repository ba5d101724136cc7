import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/audit/audit-log.js';
import type { PortalStore } from '../../src/storage/store.js';
import { openStore } from '../storage/helpers.js';

const stores: PortalStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function capture() {
  const lines: string[] = [];
  return { lines, write: (line: string) => lines.push(line) };
}

/** A clock that moves one second per reading. */
function clock(start = Date.parse('2030-01-01T00:00:00.000Z')) {
  let t = start;
  return () => {
    t += 1000;
    return new Date(t);
  };
}

const q = (extra = {}) => ({ limit: 100, offset: 0, ...extra });

describe('audit log', () => {
  it('writes one JSON line per event, never a secret, with correlation_id', async () => {
    const out = capture();
    const log = new AuditLog({ write: out.write, now: () => new Date('2030-01-01T00:00:00.000Z') });
    const event = await log.record({
      type: 'agent_operation',
      actor: 'alice',
      connection: 'prod',
      correlationId: 'run-1:step-2',
      reason: 'agent_run_deadline_exceeded',
      password: 'hunter2',
      details: { nested: { apiKey: 'k-123', agent_password: 'p', kept: 'visible' } },
      statement: 'x'.repeat(10_000),
    });
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0].endsWith('\n')).toBe(true);
    const line = JSON.parse(out.lines[0]);
    expect(line).toMatchObject({
      audit: true,
      type: 'agent_operation',
      actor: 'alice',
      connection: 'prod',
      result: 'success',
      correlation_id: 'run-1:step-2',
      reason: 'agent_run_deadline_exceeded',
      password: '[redacted]',
      details: { nested: { apiKey: '[redacted]', agent_password: '[redacted]', kept: 'visible' } },
      at: '2030-01-01T00:00:00.000Z',
    });
    expect(line).not.toHaveProperty('correlationId');
    expect(line.statement.length).toBeLessThan(8300);
    expect(out.lines[0]).not.toContain('hunter2');
    expect(out.lines[0]).not.toContain('k-123');
    expect(event.correlationId).toBe('run-1:step-2');
    expect(Object.keys(line)[0]).toBe('audit');
    expect(Object.keys(line).at(-1)).toBe('at');
  });

  it('keeps events in a bounded buffer without server storage, newest first', async () => {
    const out = capture();
    const tick = clock();
    const log = new AuditLog({ write: out.write, bufferSize: 3, now: tick });
    expect(log.source).toBe('buffer');
    for (const n of [1, 2, 3, 4, 5])
      await log.record({ type: 'query_execution', actor: `u${n}`, result: n === 5 ? 'failure' : 'success' });
    const page = await log.query(q());
    expect(page).toMatchObject({ total: 3, limit: 100, offset: 0, source: 'buffer' });
    expect(page.events.map((e) => e.actor)).toEqual(['u5', 'u4', 'u3']);
    expect((await log.query(q({ result: 'failure' }))).events.map((e) => e.actor)).toEqual(['u5']);
  });

  it('appends client events to the buffer only: no stdout line, nothing stored', async () => {
    const { store } = await openStore('sqlite');
    stores.push(store);
    const out = capture();
    const log = new AuditLog({ store: store.audit, write: out.write });
    log.append({ type: 'data_export', actor: 'alice' });
    expect(out.lines).toEqual([]);
    expect((await log.query(q())).total).toBe(0);
    expect(await log.query(q(), 'buffer')).toMatchObject({
      total: 1,
      source: 'buffer',
      events: [{ type: 'data_export' }],
    });
  });

  it.each(['sqlite', 'postgres'] as const)('stores events on %s and reports source store', async (kind) => {
    const { store } = await openStore(kind);
    stores.push(store);
    const out = capture();
    const tick = clock();
    const log = new AuditLog({ store: store.audit, write: out.write, now: tick });
    expect(log.source).toBe('store');
    await log.record({ type: 'service_token', actor: 'root', tokenName: 'bot', secret: 'pst_x' });
    await log.record({ type: 'permission_denied', actor: 'bob', connection: 'prod', result: 'failure' });
    const page = await log.query(q());
    expect(page.source).toBe('store');
    expect(page.total).toBe(2);
    expect(page.events[0]).toMatchObject({
      type: 'permission_denied',
      actor: 'bob',
      connection: 'prod',
      result: 'failure',
      id: expect.any(String),
    });
    expect(page.events[1]).toMatchObject({ type: 'service_token', tokenName: 'bot', secret: '[redacted]' });
    const raw = await store.db.selectFrom('audit_events').select('event').execute();
    expect(JSON.stringify(raw)).not.toContain('pst_x');
    expect(out.lines).toHaveLength(2);
  });
});

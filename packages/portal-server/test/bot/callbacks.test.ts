// Outbound callbacks (Events 1): a receiver over HTTPS on loopback sees correctly signed deliveries of the
// execution record for done, failed and rejected requests, and the retries — three attempts on network
// failures and 5xx under one delivery id, none after a 4xx — and an untrusted certificate is never accepted.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callbackSignature, deliverCallback } from '../../src/bot/callbacks.js';
import { sqliteDatasources } from './fixtures.js';
import { type BotHarness, botPortal } from './harness.js';
import { type Receiver, receiver, type SelfSigned, selfSigned } from './tls.js';

const SECRET = 'callback-signing-secret-for-tests';
let tls: SelfSigned;
let rx: Receiver;
let h: BotHarness;
let secret: string;

beforeAll(async () => {
  tls = selfSigned();
  rx = await receiver(tls);
  h = await botPortal({
    datasources: sqliteDatasources,
    env: { CALLBACK_SIGNING_SECRET: SECRET, CALLBACK_ALLOWED_HOSTS: '127.0.0.1' },
    bot: { callbackCa: [tls.cert] },
  });
  secret = (await h.token({ name: 'cb-bot' })).secret;
});
afterAll(async () => {
  await h?.close();
  await rx?.close();
});
beforeEach(() => {
  rx.deliveries.length = 0;
  rx.script.length = 0;
});

/** Submits a held write, approves or rejects it, and drains the queue (run, then callbacks). */
async function decided(statement: string, decision: 'approve' | 'reject') {
  const res = await h.submit(secret, {
    datasourceId: 'app',
    statement,
    onBehalfOf: 'alice@example.com',
    callback: { url: rx.url },
  });
  expect(res.statusCode).toBe(202);
  const rec = res.json().execution;
  expect((await h.decide(rec.approvalId, decision)).statusCode).toBe(200);
  await h.drain();
  return rec.id as string;
}

function verify(d: { headers: Record<string, unknown>; body: string }) {
  const ts = String(d.headers['x-portal-timestamp']);
  const expected = `v1=${createHmac('sha256', SECRET).update(`${ts}.${d.body}`).digest('hex')}`;
  expect(d.headers['x-portal-signature']).toBe(expected);
  expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(300);
  expect(d.headers['content-type']).toBe('application/json');
}

describe('callback deliveries', () => {
  it('execution.done: the signed record, after the run', async () => {
    const id = await decided("UPDATE users SET name = 'cb' WHERE id = 20", 'approve');
    expect(rx.deliveries).toHaveLength(1);
    const d = rx.deliveries[0];
    verify(d);
    expect(d.path).toBe('/hook');
    expect(d.headers['x-portal-event']).toBe('execution.done');
    expect(String(d.headers['x-portal-delivery'])).toMatch(/^[0-9a-f-]{36}:1$/);
    const record = JSON.parse(d.body);
    expect(record).toMatchObject({ id, status: 'approved', execution: { status: 'done', rowCount: 1 } });
    expect(record).toEqual((await h.read(secret, id)).json());
  });

  it('execution.failed when the statement fails', async () => {
    await decided('UPDATE no_such_table SET x = 1 WHERE id = 1', 'approve');
    expect(rx.deliveries).toHaveLength(1);
    verify(rx.deliveries[0]);
    expect(rx.deliveries[0].headers['x-portal-event']).toBe('execution.failed');
    expect(JSON.parse(rx.deliveries[0].body).execution).toMatchObject({
      status: 'failed',
      error: 'query_error',
    });
  });

  it('execution.rejected when a reviewer says no', async () => {
    const id = await decided('DELETE FROM users WHERE id = 21', 'reject');
    expect(rx.deliveries).toHaveLength(1);
    verify(rx.deliveries[0]);
    expect(rx.deliveries[0].headers['x-portal-event']).toBe('execution.rejected');
    expect(JSON.parse(rx.deliveries[0].body)).toMatchObject({ id, status: 'rejected' });
  });

  it('retries a 5xx and a dropped connection: three attempts under one delivery id, each signed', async () => {
    rx.script.push(503, 'drop');
    await decided("UPDATE users SET name = 'retry' WHERE id = 22", 'approve');
    expect(rx.deliveries).toHaveLength(3);
    const ids = rx.deliveries.map((d) => String(d.headers['x-portal-delivery']));
    const base = ids[0].split(':')[0];
    expect(ids).toEqual([`${base}:1`, `${base}:2`, `${base}:3`]);
    for (const d of rx.deliveries) verify(d);
    const done = await h.server
      .store!.db.selectFrom('jobs')
      .select(['result'])
      .where('type', '=', 'bot.callback')
      .where('payload', 'like', `%"attempt":3%`)
      .where('payload', 'like', `%${base}%`)
      .executeTakeFirst();
    expect(JSON.parse(done!.result as string)).toMatchObject({ delivered: true, attempt: 3 });
  });

  it('gives up after three failed attempts', async () => {
    rx.script.push(500, 502, 504, 500);
    await decided("UPDATE users SET name = 'gone' WHERE id = 23", 'approve');
    expect(rx.deliveries).toHaveLength(3);
    expect(rx.deliveries.map((d) => String(d.headers['x-portal-delivery']).split(':')[1])).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('does not retry a 4xx', async () => {
    rx.script.push(410);
    await decided("UPDATE users SET name = 'four' WHERE id = 24", 'approve');
    expect(rx.deliveries).toHaveLength(1);
  });

  it('a read that ran at once (200) sends no callback: the answer carried the record', async () => {
    const res = await h.submit(secret, {
      datasourceId: 'open',
      statement: 'SELECT 1 AS one',
      onBehalfOf: 'alice@example.com',
      callback: { url: rx.url },
    });
    expect(res.statusCode).toBe(200);
    await h.drain();
    expect(rx.deliveries).toHaveLength(0);
  });
});

describe('deliverCallback', () => {
  it('refuses a receiver whose certificate is not trusted (retryable), and signs v1 over timestamp.body', async () => {
    const r = await deliverCallback({
      url: rx.url,
      body: '{}',
      event: 'execution.done',
      deliveryId: 'd',
      attempt: 1,
      secret: SECRET,
    });
    expect(r).toMatchObject({ ok: false, retryable: true });
    expect(rx.deliveries).toHaveLength(0);
    expect(callbackSignature('k', '1700000000', '{"a":1}')).toBe(
      `v1=${createHmac('sha256', 'k').update('1700000000.{"a":1}').digest('hex')}`,
    );
  });

  it('refuses a plain-HTTP URL without sending anything', async () => {
    const r = await deliverCallback({
      url: rx.url.replace('https:', 'http:'),
      body: '{}',
      event: 'execution.done',
      deliveryId: 'd',
      attempt: 1,
      secret: SECRET,
    });
    expect(r).toMatchObject({ ok: false, retryable: false });
  });
});

// Chat approvals end to end (Events 2, "Chat interaction callback"): a local chat API server receives the
// announcement (review channel and reply thread, with Approve and Reject buttons) and the outcome (ten rows
// at most, masked); a signed interaction decides as `chat:<user_id>`; a forged, stale or replayed one is
// refused with 401 and audited `invalid_signature`; everyone else is answered privately via response_url.
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_REVIEWER, CHAT_SECOND, sqliteDatasources } from '../bot/fixtures.js';
import { type BotHarness, botPortal, sqliteRows } from '../bot/harness.js';
import { type ChatServer, chatServer } from './chat-server.js';

const SIGNING = 'chat-signing-secret-for-tests';
const BOT_TOKEN = 'xoxb-test-bot-token';
let chat: ChatServer;
let h: BotHarness;
let secret: string;

beforeAll(async () => {
  chat = await chatServer();
  h = await botPortal({
    datasources: sqliteDatasources,
    env: {
      CHAT_BOT_TOKEN: BOT_TOKEN,
      CHAT_SIGNING_SECRET: SIGNING,
      CHAT_REVIEW_CHANNEL: 'C_REVIEW',
      CHAT_API_URL: chat.apiUrl,
    },
  });
  secret = (await h.token({ name: 'chat-bot' })).secret;
});
afterAll(async () => {
  await h?.close();
  await chat?.close();
});
beforeEach(() => {
  chat.calls.length = 0;
  chat.responses.length = 0;
});

function press(
  user: string,
  requestId: string,
  action: 'portal_approve' | 'portal_reject',
  responseUrl?: string,
) {
  const payload = {
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase() },
    actions: [{ action_id: action, value: requestId, type: 'button' }],
    response_url: responseUrl ?? chat.responseUrl(),
    channel: { id: 'C_REVIEW' },
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function sign(body: string, ts = Math.floor(Date.now() / 1000)) {
  const sig = `v0=${createHmac('sha256', SIGNING).update(`v0:${ts}:${body}`).digest('hex')}`;
  return { 'x-slack-request-timestamp': String(ts), 'x-slack-signature': sig };
}

function interact(body: string, headers: Record<string, string>) {
  return h.server.app.inject({
    method: 'POST',
    url: '/api/chat/interactions',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: body,
  });
}

async function held(statement: string, extra: Record<string, unknown> = {}) {
  const res = await h.submit(secret, {
    datasourceId: 'app',
    statement,
    onBehalfOf: 'alice@example.com',
    reply: { channel: 'C_TEAM', threadTs: '1699999999.000200' },
    ...extra,
  });
  expect(res.statusCode).toBe(202);
  await h.drain();
  return res.json().execution as { id: string; approvalId: string };
}

const statusOf = async (id: string) => (await h.read(secret, id)).json().status;

describe('announcement', () => {
  it('goes to the review channel and the reply thread, with Approve and Reject buttons', async () => {
    const rec = await held("UPDATE users SET name = 'chat' WHERE id = 30");
    const review = chat.posts('C_REVIEW');
    const thread = chat.posts('C_TEAM');
    expect(review).toHaveLength(1);
    expect(thread).toHaveLength(1);
    expect(review[0].authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(thread[0].body.thread_ts).toBe('1699999999.000200');
    const actions = review[0].body.blocks.find((b: any) => b.type === 'actions');
    expect(actions.elements.map((e: any) => [e.action_id, e.value])).toEqual([
      ['portal_approve', rec.id],
      ['portal_reject', rec.id],
    ]);
    expect(JSON.stringify(review[0].body.blocks)).toContain('UPDATE users');
  });
});

describe('signed interactions', () => {
  it('an Approve press by an admitted chat reviewer approves; the run and its outcome follow in the thread', async () => {
    const rec = await held('SELECT id, email FROM users ORDER BY id LIMIT 25', {
      review: { reason: 'export for audit' },
    });
    const body = press(CHAT_REVIEWER, rec.id, 'portal_approve');
    const res = await interact(body, sign(body));
    expect(res.statusCode).toBe(200);
    const approval = (await h.server.governance.approvals.get(rec.approvalId))!;
    expect(approval).toMatchObject({ status: 'approved', reviewer: `chat:${CHAT_REVIEWER}` });
    expect(await statusOf(rec.id)).toBe('approved');
    chat.calls.length = 0;
    await h.drain();
    const done = (await h.read(secret, rec.id)).json();
    expect(done.execution).toMatchObject({ status: 'done', rowCount: 25 });
    expect(done.execution.rows[0].email).toBe('p***@example.com');
    // The buttons are gone from both announcements.
    const updates = chat.calls.filter((c) => c.method === 'chat.update');
    expect(updates.map((u) => u.body.channel).sort()).toEqual(['C_REVIEW', 'C_TEAM']);
    for (const u of updates) expect(JSON.stringify(u.body.blocks)).not.toContain('portal_approve');
    const outcome = chat.posts('C_TEAM').find((p) => p.body.thread_ts === '1699999999.000200');
    expect(outcome).toBeDefined();
    const text = JSON.stringify(outcome!.body.blocks);
    expect(text).toContain('p***@example.com');
    expect(text).not.toContain('person1@example.com');
    expect(text).toContain(' 10 ');
    expect(text).not.toMatch(/\b11 \|/);
  });

  it('a Reject press rejects; nothing runs and the thread hears it', async () => {
    const rec = await held('DELETE FROM users WHERE id = 31');
    const body = press(CHAT_REVIEWER, rec.id, 'portal_reject');
    expect((await interact(body, sign(body))).statusCode).toBe(200);
    await h.drain();
    expect(await statusOf(rec.id)).toBe('rejected');
    expect(JSON.stringify(chat.posts('C_TEAM').map((p) => p.body))).toContain('Rejected');
    expect(sqliteRows(join(h.dataDir, 'app.db'), 'SELECT count(*) AS n FROM users WHERE id = 31')).toEqual([
      { n: 1 },
    ]);
  });

  it('two reviewers: the first press is acknowledged privately, the second approves', async () => {
    const res = await h.submit(secret, {
      datasourceId: 'two',
      statement: "UPDATE users SET name = 'pair' WHERE id = 32",
      onBehalfOf: 'alice@example.com',
    });
    const rec = res.json().execution;
    const first = press(CHAT_REVIEWER, rec.id, 'portal_approve');
    expect((await interact(first, sign(first))).statusCode).toBe(200);
    await waitFor(async () => chat.responses.length === 1, { what: 'private acknowledgement' });
    expect(chat.responses[0].body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(chat.responses[0].body.text).toContain('1 of 2');
    expect(await statusOf(rec.id)).toBe('pending');
    const again = press(CHAT_REVIEWER, rec.id, 'portal_approve');
    await interact(again, sign(again));
    await waitFor(async () => chat.responses.length === 2, { what: 'second private answer' });
    expect(chat.responses[1].body.text).toContain('already approved');
    const second = press(CHAT_SECOND, rec.id, 'portal_approve');
    await interact(second, sign(second));
    expect(await statusOf(rec.id)).toBe('approved');
    await h.drain();
    expect(sqliteRows(join(h.dataDir, 'two.db'), 'SELECT name FROM users WHERE id = 32')).toEqual([
      { name: 'pair' },
    ]);
  });

  it('a presser the datasource does not admit is answered privately; the request stays pending', async () => {
    const rec = await held('DELETE FROM users WHERE id = 33');
    const body = press('U0STRANGER', rec.id, 'portal_approve');
    expect((await interact(body, sign(body))).statusCode).toBe(200);
    await waitFor(async () => chat.responses.length === 1, { what: 'private refusal' });
    expect(chat.responses[0].body).toMatchObject({ response_type: 'ephemeral' });
    expect(chat.responses[0].body.text).toContain('not a reviewer');
    expect(await statusOf(rec.id)).toBe('pending');
    const denied = await h.auditOf('permission_denied');
    expect(denied.some((e) => e.actor === 'chat:U0STRANGER' && e.approvalId === rec.approvalId)).toBe(true);
  });

  it('the person the request was made for cannot decide it from chat', async () => {
    const rec = await held('DELETE FROM users WHERE id = 34', { onBehalfOf: CHAT_REVIEWER });
    const body = press(CHAT_REVIEWER, rec.id, 'portal_approve');
    expect((await interact(body, sign(body))).statusCode).toBe(200);
    await waitFor(async () => chat.responses.length === 1, { what: 'private refusal' });
    expect(chat.responses[0].body.text).toContain('on your behalf');
    expect(await statusOf(rec.id)).toBe('pending');
  });

  it('a decided request answers a late press privately', async () => {
    const rec = await held('DELETE FROM users WHERE id = 35');
    await h.decide(rec.approvalId, 'reject');
    const body = press(CHAT_REVIEWER, rec.id, 'portal_approve');
    await interact(body, sign(body));
    await waitFor(async () => chat.responses.length === 1, { what: 'private answer' });
    expect(chat.responses[0].body.text).toContain('already rejected');
  });
});

describe('refused interactions', () => {
  it('a forged, stale, replayed or unsigned press is 401, audited invalid_signature, and decides nothing', async () => {
    const rec = await held('DELETE FROM users WHERE id = 36');
    const body = press(CHAT_REVIEWER, rec.id, 'portal_approve');
    const forged = `v0=${createHmac('sha256', 'wrong-secret')
      .update(`v0:${Math.floor(Date.now() / 1000)}:${body}`)
      .digest('hex')}`;
    const cases: Array<[string, Record<string, string>]> = [
      [
        'forged',
        { 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)), 'x-slack-signature': forged },
      ],
      ['stale', sign(body, Math.floor(Date.now() / 1000) - 6 * 60)],
      ['unsigned', {}],
      ['tampered', sign(press(CHAT_REVIEWER, rec.id, 'portal_reject'))],
    ];
    const before = (await h.auditOf('invalid_signature')).length;
    for (const [, headers] of cases) {
      const res = await interact(body, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_SIGNATURE', statusCode: 401 });
    }
    const valid = sign(body);
    expect((await interact(body, valid)).statusCode).toBe(200);
    expect((await interact(body, valid)).statusCode).toBe(401); // the same signature again: a replay
    const audited = await h.auditOf('invalid_signature');
    expect(audited.length - before).toBe(5);
    expect(audited.some((e) => e.reason === 'timestamp outside the five-minute window')).toBe(true);
    expect(audited.some((e) => e.reason === 'replayed request')).toBe(true);
    const approval = await h.server.governance.approvals.get(rec.approvalId);
    expect(approval?.status).toBe('approved'); // by the one valid press only
    expect(approval?.approvals).toHaveLength(1);
  });

  it('a signed body that is not an interaction payload is 400; other interaction types are acknowledged', async () => {
    const junk = 'hello=world';
    expect((await interact(junk, sign(junk))).statusCode).toBe(400);
    const other = `payload=${encodeURIComponent(JSON.stringify({ type: 'view_submission', user: { id: 'U1' } }))}`;
    expect((await interact(other, sign(other))).statusCode).toBe(200);
  });
});

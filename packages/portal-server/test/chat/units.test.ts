// Pure parts of chat approvals: the v0 signature check (window, replay, malformed headers), reading a
// button press, who counts as the requester, and the messages (buttons only when presses can be verified,
// at most ten rows, chat markup escaped).
import { describe, expect, it } from 'vitest';
import type { BotRequest } from '../../src/bot/types.js';
import { isRequester, readPress } from '../../src/chat/interactions.js';
import { announcement, escapeChat, outcome, rowsTable } from '../../src/chat/messages.js';
import { ChatSignatureVerifier, chatSignature } from '../../src/chat/signature.js';

describe('ChatSignatureVerifier', () => {
  const now = 1_800_000_000_000;
  const ts = String(now / 1000);
  it('accepts a fresh signature once, and refuses stale, future, forged and malformed ones', () => {
    const v = new ChatSignatureVerifier('s3cret', () => now);
    const sig = chatSignature('s3cret', ts, 'payload=x');
    expect(v.verify(ts, sig, 'payload=x')).toEqual({ ok: true });
    expect(v.verify(ts, sig, 'payload=x')).toMatchObject({ ok: false, reason: 'replayed request' });
    const old = String(now / 1000 - 301);
    expect(v.verify(old, chatSignature('s3cret', old, 'b'), 'b')).toMatchObject({ ok: false });
    const future = String(now / 1000 + 301);
    expect(v.verify(future, chatSignature('s3cret', future, 'b'), 'b')).toMatchObject({ ok: false });
    const edge = String(now / 1000 - 300);
    expect(v.verify(edge, chatSignature('s3cret', edge, 'b'), 'b')).toEqual({ ok: true });
    expect(v.verify(ts, chatSignature('other', ts, 'c'), 'c')).toMatchObject({
      reason: 'signature mismatch',
    });
    expect(v.verify(ts, chatSignature('s3cret', ts, 'c'), 'c2')).toMatchObject({
      reason: 'signature mismatch',
    });
    expect(v.verify(undefined, sig, 'x')).toMatchObject({ ok: false });
    expect(v.verify('12a', sig, 'x')).toMatchObject({ ok: false });
    expect(v.verify(ts, 'v1=abc', 'x')).toMatchObject({ ok: false });
  });
  it('refuses everything without a signing secret', () => {
    const v = new ChatSignatureVerifier(undefined, () => now);
    expect(v.verify(ts, chatSignature('', ts, 'x'), 'x')).toMatchObject({ ok: false });
  });
  it('remembers a bounded number of signatures', () => {
    const v = new ChatSignatureVerifier('k', () => now, 3);
    for (let i = 0; i < 10; i++) expect(v.verify(ts, chatSignature('k', ts, `b${i}`), `b${i}`).ok).toBe(true);
    expect((v as unknown as { seen: Map<string, number> }).seen.size).toBeLessThanOrEqual(3);
  });
});

describe('readPress', () => {
  const form = (p: unknown) => `payload=${encodeURIComponent(JSON.stringify(p))}`;
  it('reads an Approve or Reject press', () => {
    const p = readPress(
      form({
        type: 'block_actions',
        user: { id: 'U1', username: 'ann', name: 'Ann' },
        actions: [{ action_id: 'portal_reject', value: 'req-1' }],
        response_url: 'https://hooks.example/r',
      }),
    );
    expect(p).toEqual({
      userId: 'U1',
      names: ['ann', 'Ann'],
      decision: 'reject',
      requestId: 'req-1',
      responseUrl: 'https://hooks.example/r',
    });
  });
  it.each([
    ['not a form', 'malformed'],
    ['payload=%7Bnot json', 'malformed'],
    [form({ type: 'block_actions', actions: [] }), 'malformed'],
    [form({ type: 'view_submission' }), undefined],
    [
      form({ type: 'block_actions', user: { id: 'U1' }, actions: [{ action_id: 'other', value: 'x' }] }),
      undefined,
    ],
  ])('%s → %s', (body, out) => {
    expect(readPress(body)).toBe(out);
  });
});

describe('isRequester', () => {
  it('matches the chat id, the chat principal or a chat name, case-insensitively', () => {
    const press = { userId: 'U1', names: ['ann'] };
    expect(isRequester('U1', press)).toBe(true);
    expect(isRequester('chat:u1', press)).toBe(true);
    expect(isRequester('ANN', press)).toBe(true);
    expect(isRequester('bob', press)).toBe(false);
  });
});

const request = (over: Partial<BotRequest> = {}): BotRequest => ({
  id: 'req-1',
  tokenId: 't',
  tokenName: 'bot',
  datasourceId: 'ds',
  statement: 'DELETE FROM t WHERE a < 3 AND b > 4 ```',
  onBehalfOf: '<@U1>',
  status: 'pending',
  guardrail: 'delete',
  createdAt: 't',
  updatedAt: 't',
  version: 1,
  ...over,
});

describe('messages', () => {
  it('announces with buttons only when interactive, escaping markup', () => {
    const on = announcement({
      request: request(),
      datasourceName: 'Prod',
      approvalsRequired: 2,
      interactive: true,
    });
    const off = announcement({
      request: request(),
      datasourceName: 'Prod',
      approvalsRequired: 2,
      interactive: false,
    });
    expect(on.blocks.some((b: any) => b.type === 'actions')).toBe(true);
    expect(off.blocks.some((b: any) => b.type === 'actions')).toBe(false);
    const text = JSON.stringify(on.blocks);
    expect(text).toContain('&lt;@U1&gt;');
    expect(text).toContain('a &lt; 3 AND b &gt; 4');
    expect(text).toContain('2 approvals needed');
    expect(escapeChat('a & b')).toBe('a &amp; b');
  });
  it('shows at most ten rows of an outcome', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, v: `value-${i + 1}` }));
    const table = rowsTable(['id', 'v'], rows);
    expect(table.split('\n')).toHaveLength(12);
    expect(table).toContain('value-10');
    expect(table).not.toContain('value-11');
    const msg = outcome(
      request({
        status: 'approved',
        outcome: { execution: { status: 'done', rowCount: 30, fields: ['id', 'v'], rows, durationMs: 4 } },
      }),
      'Prod',
    );
    expect(JSON.stringify(msg.blocks)).toContain('First 10 rows shown');
    expect(outcome(request({ status: 'rejected', rejection: 'expired' }), 'Prod').text).toContain('Expired');
  });
});

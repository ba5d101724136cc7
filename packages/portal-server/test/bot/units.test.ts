// Pure parts of the bot API, table-driven: CALLBACK_ALLOWED_HOSTS parsing and matching, ISO 8601 instants,
// the 200-row / 256 KB bound, error words, the callback backoff, and the record a token reads.
import { describe, expect, it } from 'vitest';
import { callbackBackoffMs } from '../../src/bot/callbacks.js';
import { BOT_MAX_BYTES, boundRows, errorWord } from '../../src/bot/execute.js';
import { toPublicRecord } from '../../src/bot/types.js';
import { hostAllowed, parseAllowedHosts, parseIsoInstant, parseSubmission } from '../../src/bot/validate.js';
import { ProviderError } from '../../src/providers/errors.js';

describe('CALLBACK_ALLOWED_HOSTS', () => {
  const rules = parseAllowedHosts(' hooks.example.com, *.bots.example.org  api.example.net:8443 [::1]:9443 ');
  it.each([
    ['https://hooks.example.com/x', true],
    ['https://HOOKS.example.com:443/x', true],
    ['https://hooks.example.com:8443/x', true],
    ['https://a.bots.example.org/x', true],
    ['https://bots.example.org/x', false],
    ['https://evilbots.example.org/x', false],
    ['https://api.example.net:8443/x', true],
    ['https://api.example.net/x', false],
    ['https://[::1]:9443/x', true],
    ['https://hooks.example.com.evil.net/x', false],
  ])('%s → %s', (url, ok) => {
    expect(hostAllowed(new URL(url), rules)).toBe(ok);
  });
  it('an unset or empty list allows nothing', () => {
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(hostAllowed(new URL('https://x.example/'), parseAllowedHosts(' , '))).toBe(false);
  });
});

describe('ISO 8601 instants', () => {
  it.each([
    ['2030-01-01T10:00:00Z', '2030-01-01T10:00:00.000Z'],
    ['2030-01-01T10:00:00.5+02:00', '2030-01-01T08:00:00.500Z'],
    ['2030-01-01T10:00Z', '2030-01-01T10:00:00.000Z'],
    ['2030-01-01', '2030-01-01T00:00:00.000Z'],
    ['2030-01-01T10:00:00', undefined], // no zone: ambiguous
    ['01/02/2030', undefined],
    ['2030-02-30T00:00:00Z', undefined],
    [1_700_000_000, undefined],
  ])('%s → %s', (input, out) => {
    expect(parseIsoInstant(input)).toBe(out);
  });
});

describe('parseSubmission', () => {
  const rules = {
    trustedApprovals: false,
    callbackHosts: parseAllowedHosts('h.example'),
    callbacksEnabled: true,
  };
  const ok = { datasourceId: 'ds', statement: 'SELECT 1', onBehalfOf: ' alice ' };
  it('trims onBehalfOf and the ticket (120 characters)', () => {
    const s = parseSubmission({ ...ok, ticket: `  ${'t'.repeat(130)}` }, rules);
    expect(s.onBehalfOf).toBe('alice');
    expect(s.ticket).toHaveLength(120);
  });
  it('refuses a callback when callbacks are not configured', () => {
    expect(() =>
      parseSubmission(
        { ...ok, callback: { url: 'https://h.example/x' } },
        { ...rules, callbacksEnabled: false },
      ),
    ).toThrow(/CALLBACK_SIGNING_SECRET/);
  });
  it('keeps the statement exactly as sent (it is what reviewers approve and what runs)', () => {
    expect(parseSubmission({ ...ok, statement: '  SELECT 1 ;\n' }, rules).statement).toBe('  SELECT 1 ;\n');
  });
});

describe('boundRows', () => {
  it('keeps at most 200 rows', () => {
    const rows = Array.from({ length: 250 }, (_, i) => ({ i }));
    const b = boundRows(rows);
    expect(b.rows).toHaveLength(200);
    expect(b.truncated).toBe(true);
    expect(boundRows(rows.slice(0, 200)).truncated).toBe(false);
  });
  it('keeps whole rows within 256 KB of JSON', () => {
    const rows = Array.from({ length: 100 }, () => ({ v: 'x'.repeat(10_000) }));
    const b = boundRows(rows);
    expect(Buffer.byteLength(JSON.stringify(b.rows))).toBeLessThanOrEqual(BOT_MAX_BYTES);
    expect(b.rows.length).toBe(26);
    expect(b.truncated).toBe(true);
    expect(boundRows([{ v: 'x'.repeat(300_000) }])).toEqual({ rows: [], truncated: true });
  });
});

describe('errorWord', () => {
  it.each([
    [new ProviderError('timeout', 'slow'), 'timeout'],
    [new ProviderError('cancelled', 'c'), 'cancelled'],
    [new ProviderError('connection', 'c'), 'connection_error'],
    [new ProviderError('authentication', 'c'), 'connection_error'],
    [new ProviderError('query', 'syntax error near "secret@x.com"'), 'query_error'],
    [new Error('anything'), 'query_error'],
  ])('%s → %s', (err, word) => {
    expect(errorWord(err)).toBe(word);
  });
});

describe('callback backoff', () => {
  it('waits the base, then four times the base', () => {
    expect([1, 2].map((a) => callbackBackoffMs(a, 1000))).toEqual([1000, 4000]);
  });
});

describe('toPublicRecord', () => {
  it('shows scripts with executedCount and statements, and never the token or the statement', () => {
    const rec = toPublicRecord({
      id: 'r',
      tokenId: 'secret-token-id',
      tokenName: 'bot',
      datasourceId: 'ds',
      statement: 'SELECT 1; SELECT 2',
      onBehalfOf: 'alice',
      status: 'approved',
      callbackUrl: 'https://h/x',
      outcome: {
        execution: { status: 'done', rowCount: 1, fields: ['a'], rows: [{ a: 2 }], durationMs: 3 },
        executedCount: 2,
        statements: [
          { index: 0, status: 'done', rowCount: 1, durationMs: 1 },
          { index: 1, status: 'done', rowCount: 1, durationMs: 2 },
        ],
      },
      createdAt: 't',
      updatedAt: 't',
      version: 3,
    });
    expect(rec).toMatchObject({ id: 'r', status: 'approved', executedCount: 2 });
    expect(rec.statements).toHaveLength(2);
    expect(JSON.stringify(rec)).not.toContain('secret-token-id');
    expect(JSON.stringify(rec)).not.toContain('https://h/x');
    expect(rec).not.toHaveProperty('version');
  });
});

import { describe, expect, it } from 'vitest';
import { parseAuditQuery } from '../../src/audit/query.js';

describe('audit query parsing', () => {
  it.each([
    [{}, { limit: 100, offset: 0 }],
    [
      { limit: '500', offset: '20' },
      { limit: 500, offset: 20 },
    ],
    [
      { type: 'query_execution', actor: 'alice', connection: 'prod', result: 'failure' },
      {
        type: 'query_execution',
        actor: 'alice',
        connection: 'prod',
        result: 'failure',
        limit: 100,
        offset: 0,
      },
    ],
    [
      { from: '2030-01-01T00:00:00Z', to: '2030-01-01T02:00:00+01:00' },
      { from: '2030-01-01T00:00:00.000Z', to: '2030-01-01T01:00:00.000Z', limit: 100, offset: 0 },
    ],
    [
      { type: '', actor: '  ' },
      { limit: 100, offset: 0 },
    ],
  ])('accepts %j', (raw, query) => {
    expect(parseAuditQuery(raw)).toEqual({ ok: true, query, source: undefined });
  });

  it.each([
    [{ limit: 'abc' }, 'limit must be an integer from 1 to 500'],
    [{ limit: '0' }, 'limit must be an integer from 1 to 500'],
    [{ limit: '501' }, 'limit must be an integer from 1 to 500'],
    [{ limit: '9000' }, 'limit must be an integer from 1 to 500'],
    [{ limit: '-1' }, 'limit must be an integer from 1 to 500'],
    [{ limit: '1.5' }, 'limit must be an integer from 1 to 500'],
    [{ offset: '-3' }, 'offset must be a non-negative integer'],
    [{ offset: 'x' }, 'offset must be a non-negative integer'],
    [{ result: 'ok' }, 'result must be success or failure'],
    [{ from: 'yesterday' }, 'from must be an ISO-8601 instant such as 2030-01-31T18:00:00Z'],
    [{ to: '2030-01-01' }, 'to must be an ISO-8601 instant such as 2030-01-31T18:00:00Z'],
    [{ to: '2030-02-31T00:00:00' }, 'to must be an ISO-8601 instant such as 2030-01-31T18:00:00Z'],
    [{ from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z' }, 'from must not be after to'],
    [{ type: ['a', 'b'] }, 'type may be given once'],
    [{ actor: 'x'.repeat(201) }, 'actor must be at most 200 characters'],
    [{ source: 'disk' }, 'source must be store or buffer'],
  ])('refuses %j', (raw, error) => {
    expect(parseAuditQuery(raw as Record<string, unknown>)).toEqual({ ok: false, error });
  });

  it('passes an explicit source through', () => {
    expect(parseAuditQuery({ source: 'buffer' })).toMatchObject({ ok: true, source: 'buffer' });
  });
});

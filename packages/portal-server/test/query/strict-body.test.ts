// Database route bodies are checked against their schema without coercion (src/http/request-input.ts
// strictBody): a wrong JSON type is 400 in the portal's error shape, never quietly turned into a string.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './harness.js';

let h: Harness;
const connection = { id: 'mem', type: 'duckdb', database: ':memory:' };

beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

describe('strict bodies on /api/db/*', () => {
  it.each([
    ['/api/db/query', { connection, sql: 42 }, /sql must be string/],
    ['/api/db/query', { connection, sql: 'SELECT 1', ticket: true }, /ticket must be string/],
    ['/api/db/query', { connection, sql: 'SELECT 1', queryId: 7 }, /queryId must be string/],
    ['/api/db/multi-query', { connection, sql: ['SELECT 1'] }, /sql must be string/],
    [
      '/api/db/export',
      { connection, sql: 'SELECT 1', format: 'csv', reveal: 'yes' },
      /reveal must be boolean/,
    ],
    ['/api/db/transaction', { connection, action: 'start' }, /action/],
    ['/api/db/cancel', { queryId: 1 }, /queryId must be string/],
    ['/api/db/query', { connection }, /sql is required/],
  ])('%s refuses %j', async (url, body, message) => {
    const r = await h.post(url, body);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400 });
    expect(r.json().error).toMatch(message);
  });

  it('still answers a well-typed body', async () => {
    const r = await h.post('/api/db/query', { connection, sql: 'SELECT 1 AS one', ticket: 'T-1' });
    expect(r.statusCode).toBe(200);
    expect(r.json().rows).toEqual([{ one: 1 }]);
  });
});

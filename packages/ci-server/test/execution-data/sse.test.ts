// GET /api/v1/runs/{id}/logs/stream over HTTP on SQLite and PostgreSQL: a finished run replays and closes,
// Last-Event-ID resumes, a live run streams each line once and in order and closes when it ends, keep-alive
// comments flow, and bad requests are 4xx in the API's error shape.
import { createApp } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuthorizer, registerAccessControl } from '../../src/http/access.js';
import { registerLogStreamRoute } from '../../src/http/logs-stream.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, lines, parseSse, startDataFixture } from './fixture.js';

/** Reads an SSE response incrementally; `until` decides when enough text arrived (`piece`: the newest). */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  state: { text: string },
  until: (text: string, piece: string) => boolean,
): Promise<boolean> {
  const decoder = new TextDecoder();
  let piece = '';
  while (!until(state.text, piece)) {
    const { done, value } = await reader.read();
    if (done) return false;
    piece = decoder.decode(value, { stream: true });
    state.text += piece;
  }
  return true;
}

/** The `log` events of the complete events in `text` (a gzip stream's pieces may end mid-event). */
const logEvents = (text: string) =>
  parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)).filter((e) => e.event === 'log');
/**
 * Counts complete `log` events from the pieces of a stream as they arrive, scanning only the unfinished
 * event and the new piece (a big stream comes in many pieces; rescanning all of it each time is quadratic).
 */
function logCounter(): (piece: string) => number {
  let pending = '';
  let count = 0;
  return (piece) => {
    pending += piece;
    let at = 0;
    for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n', at)) {
      if (pending.startsWith('event: log', at)) count++;
      at = end + 2;
    }
    pending = pending.slice(at);
    return count;
  };
}

describe.each(STORES)('log stream on %s', (kind) => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture(kind);
  });
  afterAll(() => f.server.close());

  it('replays a finished run as `event: log` events and closes', async () => {
    const { runId, compile, lint } = await f.newRun();
    await f.server.execution.logs.appendLogBatch(compile, lines(3));
    await f.server.execution.logs.appendLogBatch(lint, lines(2, 1, 'lint'));
    await f.finishRun(runId);
    const res = await f.server.app.inject({ url: `/api/v1/runs/${runId}/logs/stream` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.headers['cache-control']).toContain('no-cache');
    const all = parseSse(res.body);
    // The last event says the run is over; its id is the last cursor, so a reconnect carries it.
    expect(all.at(-1)).toEqual({ event: 'end', id: '5', data: { status: 'success' } });
    const events = all.slice(0, -1);
    expect(events.every((e) => e.event === 'log')).toBe(true);
    expect(events.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(events[0].data).toEqual({
      job_run_id: compile,
      job_id: compile,
      seq: 1,
      stream: 'stdout',
      at: new Date(Date.UTC(2025, 0, 1) + 1).toISOString(),
      text: 'line 1',
    });
    expect(events[4].data).toMatchObject({ job_run_id: lint, seq: 2, text: 'lint 2' });

    const resumed = await f.server.app.inject({
      url: `/api/v1/runs/${runId}/logs/stream`,
      headers: { 'last-event-id': '3' },
    });
    expect(logEvents(resumed.body).map((e) => e.id)).toEqual(['4', '5']);
    // A reconnect that already holds every line of the finished run: 204, the standard "stop reconnecting".
    for (const id of ['5', '99']) {
      const past = await f.server.app.inject({
        url: `/api/v1/runs/${runId}/logs/stream`,
        headers: { 'last-event-id': id },
      });
      expect(past.statusCode).toBe(204);
      expect(past.body).toBe('');
    }
  });

  it('answers 400 for a bad Last-Event-ID or id and 404 for an unknown run', async () => {
    const { runId } = await f.newRun();
    const bad = await f.server.app.inject({
      url: `/api/v1/runs/${runId}/logs/stream`,
      headers: { 'last-event-id': 'abc' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: expect.stringContaining('Last-Event-ID') });
    const notUuid = await f.server.app.inject({ url: '/api/v1/runs/nope/logs/stream' });
    expect(notUuid.statusCode).toBe(400);
    const unknown = await f.server.app.inject({
      url: '/api/v1/runs/00000000-0000-4000-8000-000000000000/logs/stream',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: expect.stringContaining('does not exist') });
    const query = await f.server.app.inject({ url: `/api/v1/runs/${runId}/logs/stream?from=1` });
    expect(query.statusCode).toBe(400);
  });

  describe('live', () => {
    let base: string;
    beforeAll(async () => {
      await f.server.app.listen({ host: '127.0.0.1', port: 0 });
      const addr = f.server.app.server.address();
      base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    });

    it('streams each line once and in order, resumes from Last-Event-ID and closes when the run ends', async () => {
      const { runId, compile, lint } = await f.newRun();
      const logs = f.server.execution.logs;
      await logs.appendLogBatch(compile, lines(10));
      const res = await fetch(`${base}/api/v1/runs/${runId}/logs/stream`);
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const state = { text: '' };
      expect(await readUntil(reader, state, (t) => logEvents(t).length >= 10)).toBe(true);
      for (let i = 0; i < 5; i++) {
        await logs.appendLogBatch(compile, lines(10, 11 + i * 10));
        await logs.appendLogBatch(lint, lines(10, 1 + i * 10, 'lint'));
      }
      expect(await readUntil(reader, state, (t) => logEvents(t).length >= 110)).toBe(true);
      const firstPart = logEvents(state.text);
      const lastId = firstPart[59].id!;

      // A second client resumes after the 60th event while the run is still going.
      const again = await fetch(`${base}/api/v1/runs/${runId}/logs/stream`, {
        headers: { 'Last-Event-ID': lastId },
      });
      const reader2 = again.body!.getReader();
      const state2 = { text: '' };
      expect(await readUntil(reader2, state2, (t) => logEvents(t).length >= 50)).toBe(true);

      await logs.appendLogBatch(lint, lines(5, 51, 'tail'));
      await f.finishRun(runId);
      // Both streams end on their own once the run is terminal and the tail was sent.
      expect(await readUntil(reader, state, () => false)).toBe(false);
      expect(await readUntil(reader2, state2, () => false)).toBe(false);
      const all = logEvents(state.text);
      expect(all.map((e) => Number(e.id))).toEqual(Array.from({ length: 115 }, (_, i) => i + 1));
      expect(all.filter((e) => e.data.job_run_id === lint).map((e) => e.data.seq)).toEqual(
        Array.from({ length: 55 }, (_, i) => i + 1),
      );
      expect(logEvents(state2.text).map((e) => e.id)).toEqual(all.slice(60).map((e) => e.id));
      expect(f.server.execution.hub.subscriberCount(runId)).toBe(0);
    });

    it('many followers of big batches each get every line while the run is still going', async () => {
      const { runId, compile } = await f.newRun();
      const logs = f.server.execution.logs;
      const followers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          // fetch asks for gzip: half the followers take the gzip stream, half the plain one.
          const res = await fetch(`${base}/api/v1/runs/${runId}/logs/stream`, {
            headers: i % 2 ? { 'accept-encoding': 'identity' } : {},
          });
          expect(res.headers.get('content-encoding')).toBe(i % 2 ? null : 'gzip');
          return { reader: res.body!.getReader(), state: { text: '' }, count: logCounter() };
        }),
      );
      while (f.server.execution.hub.subscriberCount(runId) < followers.length)
        await new Promise((r) => setTimeout(r, 5));
      // Batches far larger than a response's buffer: writes meet back-pressure and the followers wait for
      // 'drain' between them (a cork left unbalanced there once stranded lines in the response's buffer).
      const pad = 'x'.repeat(4_000);
      for (let i = 0; i < 20; i++)
        await logs.appendLogBatch(
          compile,
          lines(25, 1 + i * 25).map((l) => ({ ...l, text: `${l.text} ${pad}` })),
        );
      const expected = Array.from({ length: 500 }, (_, i) => i + 1);
      for (const { reader, state, count } of followers) {
        expect(await readUntil(reader, state, (_, piece) => count(piece) >= 500)).toBe(true);
        expect(logEvents(state.text).map((e) => Number(e.id))).toEqual(expected);
      }
      await f.finishRun(runId);
      for (const { reader, state } of followers)
        expect(await readUntil(reader, state, () => false)).toBe(false);
    });

    it('sends keep-alive comments while nothing happens', async () => {
      const { runId } = await f.newRun();
      const app = createApp({ service: 'sse-test', errorShape: 'ci', logger: false });
      registerAccessControl(app, () => openAuthorizer);
      await app.register(async (scope) => {
        registerLogStreamRoute(scope.withTypeProvider<TypeBoxTypeProvider>(), {
          db: f.server.database.db,
          data: f.server.execution,
          keepAliveMs: 20,
        });
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const addr = app.server.address();
        const port = typeof addr === 'object' && addr ? addr.port : 0;
        const controller = new AbortController();
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/runs/${runId}/logs/stream`, {
          signal: controller.signal,
        });
        const reader = res.body!.getReader();
        const state = { text: '' };
        expect(await readUntil(reader, state, (t) => t.includes(': keep-alive\n\n'))).toBe(true);
        expect(logEvents(state.text)).toEqual([]);
        controller.abort();
        await reader.cancel().catch(() => {});
        // The server notices the closed connection and drops its subscription.
        while (f.server.execution.hub.subscriberCount(runId) > 0) await new Promise((r) => setTimeout(r, 5));
      } finally {
        await app.close();
      }
    });
  });
});

// The log stream gzip-encoded over real HTTP, on SQLite and PostgreSQL: a client sending Accept-Encoding:
// gzip gets `Content-Encoding: gzip` and a body that a standard gunzip (CRC and length checked) turns into
// exactly the bytes a plain client of the same stream receives — from the start, joining mid-run, and
// resuming with Last-Event-ID inside a batch; each batch is compressed once for every gzip follower. A client
// without gzip gets the plain stream as before, and both carry `Vary: Accept-Encoding`.
import { type IncomingHttpHeaders, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES } from '../api-helpers.js';
import { type DataFixture, lines, parseSse, startDataFixture } from './fixture.js';

/** A whole response, raw: its headers and every byte of its body, once it ended. */
function get(url: string, headers: Record<string, string>) {
  let opened: () => void = () => undefined;
  const open = new Promise<void>((r) => {
    opened = r;
  });
  const body = new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const req = request(url, { headers }, (res) => {
        opened();
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    },
  );
  return { open, body };
}

describe.each(STORES)('gzip log stream on %s', (kind) => {
  let f: DataFixture;
  let base: string;
  beforeAll(async () => {
    f = await startDataFixture(kind);
    await f.server.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = f.server.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(() => f.server.close());

  it('gunzips to the plain stream: from the start, joining mid-run, resuming with Last-Event-ID', async () => {
    const { runId, compile, lint } = await f.newRun();
    const { logs, hub } = f.server.execution;
    const url = `${base}/api/v1/runs/${runId}/logs/stream`;
    const gzip = { 'accept-encoding': 'gzip, deflate, br' };
    const attached = async (n: number) => {
      while (hub.subscriberCount(runId) < n) await new Promise((r) => setTimeout(r, 5));
    };
    const plain = get(url, {});
    const zipped = get(url, gzip);
    await Promise.all([plain.open, zipped.open]);
    await attached(2);
    const compressions = hub.encoder.compressions;
    for (let i = 0; i < 5; i++) {
      await logs.appendLogBatch(compile, lines(10, 1 + i * 10));
      await logs.appendLogBatch(lint, lines(10, 1 + i * 10, 'lint'));
    }
    // Mid-run: one joins from the start, two pairs resume inside a batch (cursor 55 of 51–60).
    const joined = get(url, gzip);
    const resumedPlain = get(url, { 'last-event-id': '55' });
    const resumed = get(url, { ...gzip, 'last-event-id': '55' });
    await Promise.all([joined.open, resumedPlain.open, resumed.open]);
    await attached(5);
    for (let i = 5; i < 8; i++) await logs.appendLogBatch(compile, lines(10, 1 + i * 10));
    await f.finishRun(runId);
    const [p, z, j, rp, r] = await Promise.all(
      [plain, zipped, joined, resumedPlain, resumed].map((c) => c.body),
    );

    expect(p.headers['content-encoding']).toBeUndefined();
    expect(p.headers.vary).toBe('Accept-Encoding');
    for (const res of [z, j, r]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    }
    // gunzipSync checks the trailer's CRC-32 and length against what it decoded.
    const plainText = p.body.toString();
    const events = parseSse(plainText);
    expect(events.filter((e) => e.event === 'log').map((e) => Number(e.id))).toEqual(
      Array.from({ length: 130 }, (_, i) => i + 1),
    );
    expect(events.at(-1)).toEqual({ event: 'end', id: '130', data: { status: 'success' } });
    expect(gunzipSync(z.body).toString()).toBe(plainText);
    expect(gunzipSync(j.body).toString()).toBe(plainText);
    const resumedText = rp.body.toString();
    expect(parseSse(resumedText)[0].id).toBe('56');
    expect(gunzipSync(r.body).toString()).toBe(resumedText);
    // The wire carries less than the text (the lines repeat, as logs do).
    expect(z.body.length).toBeLessThan(p.body.length / 2);
    // Live batches were compressed once for all gzip followers: 13 published batches (and the few pages and
    // views the joiners read), not once per follower.
    expect(hub.encoder.compressions - compressions).toBeLessThan(13 * 2);
  });

  it('a client that does not accept gzip gets the plain stream', async () => {
    const { runId, compile } = await f.newRun();
    await f.server.execution.logs.appendLogBatch(compile, lines(3));
    await f.finishRun(runId);
    const asked: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'br' },
      { 'accept-encoding': 'gzip;q=0, br' },
    ];
    for (const header of asked) {
      const res = await get(`${base}/api/v1/runs/${runId}/logs/stream`, header).body;
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(parseSse(res.body.toString()).map((e) => e.id)).toEqual(['1', '2', '3', '3']);
    }
  });
});

// Response compression of the shared app factory: JSON over 1 KiB goes brotli or gzip per Accept-Encoding,
// small bodies and streams go as they are, `Vary: Accept-Encoding` always; a real HTTP client (fetch) reads it.
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { chooseEncoding } from '../src/compression.js';

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item number ${i}` })) };
let app: ReturnType<typeof createApp>;
let base = '';

beforeAll(async () => {
  app = createApp({ service: 'compress-test', errorShape: 'ci', logger: false });
  app.get('/big', async () => big);
  app.get('/small', async () => ({ ok: true }));
  app.get('/stream', async (_req, reply) => reply.type('text/plain').send(Readable.from(['x'.repeat(5000)])));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(() => app?.close());

describe('response compression', () => {
  it('compresses JSON over the threshold with brotli, or gzip when brotli is not accepted', async () => {
    const plain = JSON.stringify(big);
    const br = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(br.headers['content-length'])).toBeLessThan(plain.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gz = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
    const none = await app.inject({ url: '/big' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.json()).toEqual(big);
  });

  it('leaves small bodies and streams alone', async () => {
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toMatch(/Accept-Encoding/);
    expect(small.json()).toEqual({ ok: true });
    const stream = await app.inject({ url: '/stream', headers: { 'accept-encoding': 'br' } });
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body).toHaveLength(5000);
  });

  it('is read transparently by an ordinary HTTP client', async () => {
    const res = await fetch(`${base}/big`);
    expect(res.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
    expect(await res.json()).toEqual(big);
  });

  it('picks the encoding from Accept-Encoding, honouring q=0', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
  });
});

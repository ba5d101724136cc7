// The pieces of gzip log streams: CRC-32 and its combination (against a plain CRC of the concatenation),
// shared deflate chunks that concatenate into one gzip member a standard gunzip reads (also when streamed
// piece by piece), the encoder's one compression per batch (a view of a batch included), and Accept-Encoding
// negotiation.
import { createGunzip, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Combine, crc32CombineShifted, crc32Shift } from '../../src/logs/crc32.js';
import { SseEncoder, suffixOf } from '../../src/logs/sse-encoding.js';
import { acceptsGzip, GZIP_HEADER, GzipMember, gzipChunk } from '../../src/logs/sse-gzip.js';
import type { StoredLogLine } from '../../src/logs/types.js';

const bytes = (n: number, seed: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed * 7) & 0xff));

describe('crc32', () => {
  it('matches the standard check values', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
    // Continuing from a CRC is the CRC of the concatenation.
    expect(crc32(Buffer.from('56789'), crc32(Buffer.from('1234')))).toBe(0xcbf43926);
  });

  it.each([
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
    [3, 17],
    [100, 1],
    [4096, 12_345],
    [65_537, 3],
    [250_000, 1_000_003],
  ])('combines the CRCs of %i and %i bytes into the CRC of both', (lengthA, lengthB) => {
    const a = bytes(lengthA, 1);
    const b = bytes(lengthB, 2);
    const whole = crc32(Buffer.concat([a, b]));
    expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(whole);
    expect(crc32CombineShifted(crc32(a), crc32(b), crc32Shift(b.length))).toBe(whole);
  });

  it('folds many chunks in turn, as a follower does', () => {
    const chunks = Array.from({ length: 50 }, (_, i) => bytes(i * 37, i));
    let crc = 0;
    for (const c of chunks) crc = crc32CombineShifted(crc, crc32(c), crc32Shift(c.length));
    expect(crc).toBe(crc32(Buffer.concat(chunks)));
  });
});

describe('gzip chunks', () => {
  const texts = [
    'retry: 3000\n\n',
    'event: log\nid: 1\ndata: {"text":"a"}\n\n'.repeat(300),
    '',
    'é✓'.repeat(5000),
  ];

  it('concatenate into one gzip member whose trailer is the plain bytes’ CRC and length', () => {
    const member = new GzipMember();
    const body = Buffer.concat([
      GZIP_HEADER,
      ...texts.map((t) => member.add(gzipChunk(t))),
      member.trailer(),
    ]);
    expect(gunzipSync(body).toString()).toBe(texts.join(''));
    // Shared chunks: a second member of other chunks in another order is valid too.
    const other = new GzipMember();
    const reversed = [...texts].reverse();
    const body2 = Buffer.concat([
      GZIP_HEADER,
      ...reversed.map((t) => other.add(gzipChunk(t))),
      other.trailer(),
    ]);
    expect(gunzipSync(body2).toString()).toBe(reversed.join(''));
  });

  it('decode as they arrive: each chunk ends in a sync flush', async () => {
    const member = new GzipMember();
    const gunzip = createGunzip();
    let out = '';
    gunzip.on('data', (d: Buffer) => {
      out += d.toString();
    });
    gunzip.write(GZIP_HEADER);
    for (const t of texts.slice(0, 2)) gunzip.write(member.add(gzipChunk(t)));
    // Without the trailer, what was written is already readable.
    while (out.length < texts[0].length + texts[1].length) await new Promise((r) => setImmediate(r));
    expect(out).toBe(texts[0] + texts[1]);
    gunzip.destroy();
  });

  it('a wrong trailer is caught by gunzip (the CRC is checked)', () => {
    const member = new GzipMember();
    const chunk = member.add(gzipChunk('hello'));
    const trailer = member.trailer();
    trailer[2] ^= 1;
    expect(() => gunzipSync(Buffer.concat([GZIP_HEADER, chunk, trailer]))).toThrow();
  });

  it('the encoder compresses a batch once, and a view of it once, for every follower', () => {
    const encoder = new SseEncoder();
    const line = (cursor: number): StoredLogLine => ({
      cursor,
      job_run_id: 'j',
      seq: cursor,
      stream: 'stdout',
      at: '2026-01-01T00:00:00.000Z',
      text: `line ${cursor}`,
    });
    const batch = [1, 2, 3, 4].map(line);
    const first = encoder.gzip(batch);
    expect(encoder.gzip(batch)).toBe(first);
    const view = suffixOf(batch, 2);
    const cut = encoder.gzip(view);
    expect(encoder.gzip(suffixOf(batch, 2))).toBe(cut);
    expect(encoder.compressions).toBe(2);
    expect(encoder.encodes).toBe(1);
    const member = new GzipMember();
    const body = Buffer.concat([GZIP_HEADER, member.add(cut), member.trailer()]);
    expect(gunzipSync(body)).toEqual(encoder.encode(view));
  });
});

describe('Accept-Encoding', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['gzip', true],
    ['GZIP;q=0.5', true],
    ['x-gzip', true],
    ['br', false],
    ['gzip;q=0', false],
    ['*', true],
    ['*, gzip;q=0', false],
    ['identity', false],
    ['', false],
  ])('%j accepts gzip: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
  it('no header: plain', () => expect(acceptsGzip(undefined)).toBe(false));
});

// gzip for log streams, compressed once for every follower. The SSE text of a published batch is fixed, and
// so can be its compressed form: each batch (and each constant event, like the keep-alive) is deflated once
// into a self-contained raw-deflate chunk that ends with a sync flush and refers to nothing before it, so
// any sequence of chunks is one valid deflate stream. A follower's response is then a fixed gzip header,
// the shared chunks it is sent, and at its end an empty final block and the gzip trailer: the CRC-32 and
// length of the plain bytes that follower received, kept per follower by combining each chunk's CRC
// (crc32.ts) rather than reading its bytes. Compressing once per batch costs about what one follower's
// plain write did; each follower then writes (and the kernel copies) a fraction of the bytes.
import { constants, deflateRawSync } from 'node:zlib';
import { crc32, crc32CombineShifted, crc32Shift } from './crc32.js';

/** Plain bytes deflated into a chunk any gzip stream can carry, with what its trailer needs. */
export interface GzipChunk {
  /** Raw deflate, non-final blocks, ending byte-aligned with a sync flush (00 00 ff ff). */
  deflated: Buffer;
  /** CRC-32 and length of the plain bytes. */
  crc: number;
  length: number;
  /** x^(8·length) mod P: what combines this chunk's CRC into a follower's in one step. */
  shift: number;
}

/** The members' fixed header: deflate, no name or time, OS unknown (RFC 1952). */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** An empty final block with fixed codes: what ends a deflate stream made of sync-flushed chunks. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

export function gzipChunk(plain: Buffer | string): GzipChunk {
  const bytes = typeof plain === 'string' ? Buffer.from(plain) : plain;
  return {
    // A fresh deflater per chunk: no back-reference reaches into bytes another follower may not have.
    deflated: deflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }),
    crc: crc32(bytes),
    length: bytes.length,
    shift: crc32Shift(bytes.length),
  };
}

/** One follower's gzip member: the header once, chunks as they go, the trailer at a clean end. */
export class GzipMember {
  private crc = 0;
  private size = 0;

  /** The deflated bytes to write for `chunk` (shared, never copied); counts it into the trailer. */
  add(chunk: GzipChunk): Buffer {
    this.crc = crc32CombineShifted(this.crc, chunk.crc, chunk.shift);
    this.size = (this.size + chunk.length) % 0x1_0000_0000;
    return chunk.deflated;
  }

  /** The end of the member: the final block, then CRC-32 and ISIZE (length mod 2^32), little-endian. */
  trailer(): Buffer {
    const out = Buffer.allocUnsafe(10);
    FINAL_BLOCK.copy(out, 0);
    out.writeUInt32LE(this.crc, 2);
    out.writeUInt32LE(this.size, 6);
    return out;
  }
}

/** Whether an Accept-Encoding header accepts gzip (`gzip` or `*` without q=0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    const w = Number.isFinite(weight) ? weight : 0;
    if (name === 'gzip' || name === 'x-gzip') gzip = w;
    else if (name === '*') any = w;
  }
  return (gzip ?? any ?? 0) > 0;
}

// The SSE text of log lines, encoded once per batch for every follower. A batch the hub published (or a
// store page several followers share) is one array; its events become one Buffer, cached by the array, so a
// thousand followers write the same bytes and nobody concatenates strings or counts bytes per follower. A
// batch cut from another (a follower whose cursor falls inside it) is a view into the other's Buffer at the
// byte offset of its first line, never a second encoding. `encodes` counts real encodings (tests assert one
// per batch; the benchmark prints it). For followers that accept gzip, each batch (or view) is also
// deflated once into a chunk they all write (`gzip`, sse-gzip.ts); `compressions` counts those.
import { type GzipChunk, gzipChunk } from './sse-gzip.js';
import type { StoredLogLine } from './types.js';
import { toLogLineJson } from './types.js';

/** A batch of one run's lines as published or read: shared, never modified. */
export type LogBatch = readonly StoredLogLine[];

/** One line as the SSE event the stream sends (`event: log`, `id:` its cursor, `data:` a LogLine JSON). */
export function sseLogEvent(line: StoredLogLine): string {
  return `event: log\nid: ${line.cursor}\ndata: ${JSON.stringify(toLogLineJson(line))}\n\n`;
}

interface Encoded {
  bytes: Buffer;
  /** Byte offset of each line's event in `bytes` (length: lines + 1, the last is the total). */
  offsets: Uint32Array;
  /** The gzip chunks of the batch from its line `from` on (0: the whole batch), made on first use. */
  gzip?: Map<number, GzipChunk>;
}

// Batches cut from a shared one (hub.ts's chainAfter records them): the parent and the first line kept.
const suffixes = new WeakMap<LogBatch, { parent: LogBatch; from: number }>();

/** `parent` from its line `from` on, as a new array that encodes as a view of the parent's bytes. */
export function suffixOf(parent: LogBatch, from: number): LogBatch {
  if (from === 0) return parent;
  const origin = suffixes.get(parent);
  const rest = parent.slice(from);
  suffixes.set(rest, origin ? { parent: origin.parent, from: origin.from + from } : { parent, from });
  return rest;
}

export class SseEncoder {
  /** Batches encoded so far (each published batch once, however many follow it). */
  encodes = 0;
  /** Lines encoded so far. */
  lines = 0;
  /** gzip chunks made so far (each batch, or view of one, once however many followers take it). */
  compressions = 0;
  private readonly cache = new WeakMap<LogBatch, Encoded>();

  constructor(private readonly event: (line: StoredLogLine) => string = sseLogEvent) {}

  /** The batch's events as bytes: encoded on first use, the same Buffer (or a view of it) afterwards. */
  encode(batch: LogBatch): Buffer {
    const cut = suffixes.get(batch);
    if (cut) {
      const whole = this.encoded(cut.parent);
      return whole.bytes.subarray(whole.offsets[cut.from]);
    }
    return this.encoded(batch).bytes;
  }

  /** The batch's events as one shared gzip chunk: deflated on first use, the same chunk afterwards. */
  gzip(batch: LogBatch): GzipChunk {
    const cut = suffixes.get(batch);
    const whole = this.encoded(cut ? cut.parent : batch);
    const from = cut ? cut.from : 0;
    whole.gzip ??= new Map();
    let chunk = whole.gzip.get(from);
    if (chunk === undefined) {
      chunk = gzipChunk(from === 0 ? whole.bytes : whole.bytes.subarray(whole.offsets[from]));
      whole.gzip.set(from, chunk);
      this.compressions++;
    }
    return chunk;
  }

  /** Bytes of the batch's events (encodes it if it was not yet). */
  byteLength(batch: LogBatch): number {
    return this.encode(batch).length;
  }

  private encoded(batch: LogBatch): Encoded {
    let e = this.cache.get(batch);
    if (e === undefined) {
      const offsets = new Uint32Array(batch.length + 1);
      const parts: string[] = new Array(batch.length);
      let at = 0;
      for (let i = 0; i < batch.length; i++) {
        parts[i] = this.event(batch[i]);
        offsets[i] = at;
        at += Buffer.byteLength(parts[i]);
      }
      offsets[batch.length] = at;
      const bytes = Buffer.allocUnsafe(at);
      for (let i = 0; i < batch.length; i++) bytes.write(parts[i], offsets[i]);
      e = { bytes, offsets };
      this.cache.set(batch, e);
      this.encodes++;
      this.lines += batch.length;
    }
    return e;
  }
}

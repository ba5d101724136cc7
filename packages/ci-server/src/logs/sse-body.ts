// The bytes of one follower's log stream, plain or gzip: what the SSE route writes for the stream's start,
// each batch, a keep-alive, one event of its own (the end, an error) and its clean end. Plain, a batch is
// the encoder's shared Buffer; gzip (the client sent Accept-Encoding: gzip, as browsers' EventSource does),
// it is the encoder's shared deflated chunk of the same bytes (sse-gzip.ts), and the follower keeps only the
// CRC and length its trailer needs. Either way the SSE text the client reads is the same.
import type { SharedLines } from './live.js';
import type { LogBatch, SseEncoder } from './sse-encoding.js';
import { GZIP_HEADER, type GzipChunk, GzipMember, gzipChunk } from './sse-gzip.js';

/** Sent first: how long EventSource waits before it reconnects. */
export const SSE_RETRY = 'retry: 3000\n\n';
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

export interface SseBody {
  /** The Content-Encoding of the response, if any. */
  readonly contentEncoding: 'gzip' | undefined;
  start(): Buffer | string;
  batch(batch: LogBatch): Buffer;
  /** The lines a beat of the hub writes (live.ts): their shared bytes, one Buffer. */
  lines(lines: SharedLines): Buffer;
  keepAlive(): Buffer | string;
  /** An event of this follower alone (an error), written as it is or deflated alone. */
  event(text: string): Buffer | string;
  /** The last event of a stream that ends cleanly, and whatever closes the encoding. */
  end(text: string): Buffer | string;
}

export function plainSseBody(encoder: SseEncoder): SseBody {
  return {
    contentEncoding: undefined,
    start: () => SSE_RETRY,
    batch: (batch) => encoder.encode(batch),
    lines: (lines) => lines.plain(),
    keepAlive: () => SSE_KEEP_ALIVE,
    event: (text) => text,
    end: (text) => text,
  };
}

// The constant events, deflated once for every gzip follower.
let constants: { retry: GzipChunk; keepAlive: GzipChunk } | undefined;
const shared = () => {
  constants ??= { retry: gzipChunk(SSE_RETRY), keepAlive: gzipChunk(SSE_KEEP_ALIVE) };
  return constants;
};

export function gzipSseBody(encoder: SseEncoder): SseBody {
  const member = new GzipMember();
  return {
    contentEncoding: 'gzip',
    start: () => Buffer.concat([GZIP_HEADER, member.add(shared().retry)]),
    batch: (batch) => member.add(encoder.gzip(batch)),
    lines: (lines) => member.add(lines.gzip()),
    keepAlive: () => member.add(shared().keepAlive),
    event: (text) => member.add(gzipChunk(text)),
    end: (text) => Buffer.concat([member.add(gzipChunk(text)), member.trailer()]),
  };
}

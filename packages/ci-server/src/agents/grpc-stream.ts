// The direct path for the agent's Session stream (grpc-unary.ts does the same for ReportJob): every job's
// assignment goes down this stream, and through Connect each message passed a chain of async generators
// (serialize, envelope, compress, join) and a promise per write. Here the implementation's messages are
// serialized and written as gRPC envelopes straight onto the HTTP/2 response, and the agent's messages
// (heartbeats, drain) are split from the request body and decoded as they arrive.
//
// The same plain case only (grpc-unary.ts's `plainGrpc`); the same answers as Connect: the response headers
// are sent with the first message (or at the end), the stream ends with a `grpc-status` trailer (Connect's
// `setTrailerStatus` for errors, an error that is not a ConnectError shown as "internal error"), the signal
// the implementation gets is aborted when the agent's stream closes and when the implementation is done.
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { AsyncQueue } from '@app/kit';
import {
  create,
  type DescMessage,
  fromBinary,
  type MessageInitShape,
  type MessageShape,
  toBinary,
} from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { envelope, errorTrailers, headerOf, OK_TRAILERS, plainGrpc, RESPONSE_HEADERS } from './grpc-unary.js';

/** One bidirectional streaming method served directly. */
export interface DirectStream<I extends DescMessage, O extends DescMessage> {
  input: I;
  output: O;
  handle(
    requests: AsyncIterable<MessageShape<I>>,
    header: (name: string) => string | undefined,
    signal: AbortSignal,
  ): AsyncIterable<MessageInitShape<O>>;
}

/** A table of methods of different message types. */
type AnyDirectStream = DirectStream<any, any>;

/** A request listener for the given stream paths: true when it took the request, false when Connect should. */
export function directStreamCalls(methods: ReadonlyMap<string, AnyDirectStream>, readMaxBytes: number) {
  return (req: Http2ServerRequest, res: Http2ServerResponse): boolean => {
    const method = methods.get(req.url);
    if (!method || !plainGrpc(req)) return false;
    const requests = new AsyncQueue<MessageShape<DescMessage>>();
    const abort = new AbortController();
    /** The first malformed envelope: the stream ends with it. */
    let broken: ConnectError | undefined;
    let pending: Buffer = Buffer.alloc(0);
    const fail = (error: ConnectError) => {
      broken ??= error;
      requests.close();
    };
    req.on('data', (chunk: Buffer) => {
      if (broken) return;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (pending.length >= 5) {
        const length = pending.readUInt32BE(1);
        if (length > readMaxBytes)
          return fail(
            new ConnectError(
              `message size ${length} is larger than configured readMaxBytes ${readMaxBytes}`,
              Code.ResourceExhausted,
            ),
          );
        if (pending.length < 5 + length) return;
        if (pending[0] & 1)
          return fail(
            new ConnectError(
              'received compressed envelope, but do not know how to decompress',
              Code.Internal,
            ),
          );
        try {
          requests.push(fromBinary(method.input, pending.subarray(5, 5 + length)));
          // Bounded as Connect's pull is: past a few unread messages the agent's stream waits (HTTP/2 flow
          // control) until the implementation has read them.
          if (requests.size >= MAX_UNREAD) req.pause();
        } catch (err) {
          return fail(
            new ConnectError(
              `parse binary: ${err instanceof Error ? err.message : String(err)}`,
              Code.Internal,
            ),
          );
        }
        pending = pending.subarray(5 + length);
      }
    });
    req.on('end', () => {
      if (pending.length > 0)
        fail(new ConnectError('protocol error: incomplete envelope', Code.InvalidArgument));
      requests.close();
    });
    // The agent's stream closed (it went away, or the call is over): the implementation is told.
    req.on('close', () => {
      requests.close();
      abort.abort();
    });
    void serve(method, unread(requests, req), headerOf(req.headers), abort, res, () => broken);
    return true;
  };
}

/** Agent messages decoded but not yet read by the implementation, at most (then the request is paused). */
const MAX_UNREAD = 16;

/** The queue's messages as the implementation reads them, resuming a paused request once it caught up. */
async function* unread<T>(queue: AsyncQueue<T>, req: Http2ServerRequest): AsyncIterable<T> {
  for await (const message of queue) {
    if (queue.size < MAX_UNREAD / 2 && req.isPaused()) req.resume();
    yield message;
  }
}

async function serve(
  method: AnyDirectStream,
  requests: AsyncIterable<MessageShape<DescMessage>>,
  header: (name: string) => string | undefined,
  abort: AbortController,
  res: Http2ServerResponse,
  broken: () => ConnectError | undefined,
): Promise<void> {
  const gone = () => res.stream.destroyed || res.writableEnded;
  let error: ConnectError | undefined;
  try {
    for await (const init of method.handle(requests, header, abort.signal)) {
      if (gone()) break;
      const message = envelope(toBinary(method.output, create(method.output, init)));
      if (!res.headersSent) res.writeHead(200, RESPONSE_HEADERS);
      if (!res.write(message)) await drained(res);
    }
    error = broken();
  } catch (err) {
    // As Connect: an error that is not a ConnectError is not shown to the caller.
    error = err instanceof ConnectError ? err : new ConnectError('internal error', Code.Internal);
  } finally {
    abort.abort();
  }
  if (gone()) return;
  try {
    if (!res.headersSent) res.writeHead(200, RESPONSE_HEADERS);
    res.addTrailers(error ? errorTrailers(error) : OK_TRAILERS);
    res.end();
  } catch {
    // The stream closed between the check and the write: the agent reconnects on its own.
  }
}

/** Resolves when the response can take more, or when it closed (the loop then stops). */
function drained(res: Http2ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

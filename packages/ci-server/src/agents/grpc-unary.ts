// A direct path for the agent protocol's hot unary calls (ReportJob: two per job; PushLogBatches: one per
// round of an agent's log batches, PushLogs: one per batch from older agents) in front of ConnectRPC.
// Connect's node adapter costs a job's reports more CPU than the reports' own work: per call it builds a URL,
// a `Headers` object, an `AbortController` that it aborts (with a `DOMException`) when the call ends, a
// handler context, and a chain of async generators to split, parse, serialize and join one envelope. Here the
// same gRPC exchange is served from the HTTP/2 request in one pass: the body read, the one envelope checked and
// decoded, the implementation called, the answer written as one DATA frame and a `grpc-status` trailer.
//
// Only the plain case takes this path: POST, `application/grpc` or `application/grpc+proto`, no message
// compression, a well-formed `grpc-timeout` or none. Anything else (gzip, JSON, an unknown path) goes to
// Connect as before, so the wire protocol an agent sees is Connect's: same headers, the same status codes and
// messages for malformed envelopes (the texts are Connect's), errors as `grpc-status` / `grpc-message`
// trailers set by Connect's own `setTrailerStatus`.
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import {
  create,
  type DescMessage,
  fromBinary,
  isMessage,
  type MessageShape,
  toBinary,
} from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { setTrailerStatus } from '@connectrpc/connect/protocol-grpc';

/** One unary method served directly: its message types and the implementation (request headers by name). */
export interface DirectUnary<I extends DescMessage, O extends DescMessage> {
  input: I;
  output: O;
  handle(request: MessageShape<I>, header: (name: string) => string | undefined): Promise<unknown>;
}

/** A table of methods of different message types. */
type AnyDirectUnary = DirectUnary<any, any>;

const CONTENT_TYPES = new Set(['application/grpc', 'application/grpc+proto']);
/** gRPC's timeout header: up to eight digits and a unit (Connect refuses anything else). */
const TIMEOUT = /^\d{1,8}[HMSmun]$/;
export const RESPONSE_HEADERS = {
  'content-type': 'application/grpc+proto',
  'grpc-accept-encoding': 'gzip, br',
} as const;
export const OK_TRAILERS = { 'grpc-status': '0' } as const;

/** True for the plain case this path serves: POST, binary gRPC, no compression, a valid timeout or none. */
export function plainGrpc(req: Http2ServerRequest): boolean {
  if (req.method !== 'POST') return false;
  const headers = req.headers;
  if (!CONTENT_TYPES.has(String(headers['content-type']).toLowerCase())) return false;
  const encoding = headers['grpc-encoding'];
  if (encoding !== undefined && encoding !== 'identity') return false;
  const timeout = headers['grpc-timeout'];
  return timeout === undefined || TIMEOUT.test(String(timeout));
}

/** A request header by its (lower-case) name, as Connect's `Headers#get` gives it. */
export const headerOf = (headers: Http2ServerRequest['headers']) => (name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** One gRPC envelope (uncompressed) around a serialized message. */
export function envelope(message: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}

/** The trailers of an error, set by Connect's own function (code, percent-encoded message, metadata). */
export function errorTrailers(error: ConnectError): Record<string, string> {
  const plain: Record<string, string> = {};
  setTrailerStatus(new Headers(), error).forEach((value, key) => {
    plain[key] = value;
  });
  return plain;
}

/**
 * A request listener for the given paths (`/<service>/<method>`): answers true when it took the request,
 * false when Connect should serve it.
 */
export function directUnaryCalls(methods: ReadonlyMap<string, AnyDirectUnary>, readMaxBytes: number) {
  return (req: Http2ServerRequest, res: Http2ServerResponse): boolean => {
    const method = methods.get(req.url);
    if (!method || !plainGrpc(req)) return false;
    const headers = req.headers;
    const chunks: Buffer[] = [];
    let size = 0;
    /** The envelope's length as it declared it (what Connect's size error names). */
    let declared = -1;
    req.on('data', (chunk: Buffer) => {
      if (declared < 0 && size + chunk.length >= 5) {
        const head = size === 0 ? chunk : Buffer.concat([...chunks, chunk], size + chunk.length);
        declared = head.readUInt32BE(1);
      }
      size += chunk.length;
      // Past the limit the rest is drained, not kept.
      if (size <= readMaxBytes + 5) chunks.push(chunk);
    });
    req.on('end', () => {
      void answer(
        method,
        size > readMaxBytes + 5 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size),
        declared >= 0 ? declared : size,
        headerOf(headers),
      ).then(
        (out) => respond(res, out, undefined),
        // As Connect: an error that is not a ConnectError is not shown to the caller.
        (err) =>
          respond(
            res,
            undefined,
            err instanceof ConnectError ? err : new ConnectError('internal error', Code.Internal),
          ),
      );
    });
    return true;
  };

  async function answer(
    method: AnyDirectUnary,
    body: Buffer | undefined,
    size: number,
    header: (name: string) => string | undefined,
  ): Promise<Uint8Array> {
    if (!body)
      throw new ConnectError(
        `message size ${size} is larger than configured readMaxBytes ${readMaxBytes}`,
        Code.ResourceExhausted,
      );
    if (body.length === 0)
      throw new ConnectError('protocol error: missing input message for unary method', Code.Unimplemented);
    if (body.length < 5) throw new ConnectError('protocol error: incomplete envelope', Code.InvalidArgument);
    const flags = body[0];
    const length = body.readUInt32BE(1);
    if (length > readMaxBytes)
      throw new ConnectError(
        `message size ${length} is larger than configured readMaxBytes ${readMaxBytes}`,
        Code.ResourceExhausted,
      );
    if (body.length < 5 + length)
      throw new ConnectError('protocol error: incomplete envelope', Code.InvalidArgument);
    if (body.length > 5 + length)
      throw new ConnectError(
        'protocol error: received extra input message for unary method',
        Code.Unimplemented,
      );
    if (flags & 1)
      throw new ConnectError(
        'received compressed envelope, but do not know how to decompress',
        Code.Internal,
      );
    let request: MessageShape<DescMessage>;
    try {
      request = fromBinary(method.input, body.subarray(5));
    } catch (err) {
      throw new ConnectError(
        `parse binary: ${err instanceof Error ? err.message : String(err)}`,
        Code.Internal,
      );
    }
    const out = await method.handle(request, header);
    // As Connect: a handler may answer with a plain init object (`{ ackedSeq }`), made a message here.
    return toBinary(
      method.output,
      isMessage(out, method.output) ? out : create(method.output, out as MessageShape<DescMessage>),
    );
  }
}

/** One DATA frame (the envelope) and the trailers; nothing when the agent already reset the stream. */
function respond(res: Http2ServerResponse, message: Uint8Array | undefined, error: ConnectError | undefined) {
  if (res.stream.destroyed || res.writableEnded) return;
  try {
    res.writeHead(200, RESPONSE_HEADERS);
    res.addTrailers(error ? errorTrailers(error) : OK_TRAILERS);
    if (message) res.end(envelope(message));
    else res.end();
  } catch {
    // The stream closed between the check and the write: the agent is gone, and retries on its own.
  }
}

// The direct path for the Session stream (src/agents/grpc-stream.ts) against Connect itself: the same raw
// HTTP/2 requests (a body of several envelopes) sent to a server with the direct path and to one with
// Connect alone must get the same answer — status, content type, grpc-status, grpc-message and every
// envelope of the body — for a good exchange, a refusal before any message, an internal error after one, and
// malformed envelopes; and Connect's own client holds a bidirectional session over it, its messages answered
// as they arrive, the implementation's signal aborted when the client goes away.
import { connect as http2Connect } from 'node:http2';
import { type AgentMessage, AgentMessageSchema, AgentService, ServerMessageSchema } from '@app/ci-proto';
import { AsyncQueue, waitFor } from '@app/kit';
import { create, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { connectNodeAdapter, createGrpcTransport } from '@connectrpc/connect-node';
import { describe, expect, it } from 'vitest';
import { directStreamCalls } from '../../src/agents/grpc-stream.js';
import { differentialServers } from './differential-servers.fixture.js';

const PATH = `/${AgentService.typeName}/Session`;
const MAX = 1024;
let aborted = 0;

/** The fake implementation: each heartbeat answered with its job ids as cancels; refusals by session id. */
async function* session(
  requests: AsyncIterable<AgentMessage>,
  id: string,
  signal: AbortSignal,
): AsyncIterable<MessageInitShape<typeof ServerMessageSchema>> {
  signal.addEventListener('abort', () => aborted++, { once: true });
  if (id === 'refuse')
    throw new ConnectError(`unknown agent session ${id}; register again`, Code.Unauthenticated);
  for await (const m of requests) {
    if (m.kind.case !== 'heartbeat') continue;
    yield { kind: { case: 'heartbeatAck', value: { cancelJobIds: m.kind.value.runningJobIds } } };
    if (id === 'crash') throw new Error('secret internals');
  }
}

const connect = connectNodeAdapter({
  routes: (router) =>
    router.service(AgentService, {
      session: (requests, ctx) =>
        session(requests, ctx.requestHeader.get('x-agent-session') ?? '', ctx.signal),
    }),
  grpc: true,
  grpcWeb: false,
  connect: false,
  readMaxBytes: MAX,
});
const direct = directStreamCalls(
  new Map([
    [
      PATH,
      {
        input: AgentMessageSchema,
        output: ServerMessageSchema,
        handle: (
          requests: AsyncIterable<AgentMessage>,
          header: (name: string) => string | undefined,
          signal: AbortSignal,
        ) => session(requests, header('x-agent-session') ?? '', signal),
      },
    ],
  ]),
  MAX,
);
const ports = differentialServers(connect, direct);

/** One raw exchange: the whole request body sent at once, the whole answer read. */
function raw(port: number, body: Buffer, id = 's-1') {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const client = http2Connect(`http://127.0.0.1:${port}`);
    client.on('error', reject);
    const stream = client.request({
      ':method': 'POST',
      ':path': PATH,
      'content-type': 'application/grpc',
      te: 'trailers',
      'x-agent-session': id,
    });
    const answer: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      answer.status = h[':status'];
      answer.contentType = h['content-type'];
      answer.grpcStatus = h['grpc-status'];
      answer.grpcMessage = h['grpc-message'];
    });
    stream.on('trailers', (t) => {
      answer.grpcStatus = t['grpc-status'];
      answer.grpcMessage = t['grpc-message'];
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('close', () => {
      client.close();
      resolve({ ...answer, body: Buffer.concat(chunks).toString('hex') });
    });
    stream.end(body);
  });
}

const envelope = (message: Uint8Array, flags = 0, length = message.length) => {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(length, 1);
  return Buffer.concat([head, message]);
};
const heartbeat = (...runningJobIds: string[]) =>
  envelope(
    toBinary(
      AgentMessageSchema,
      create(AgentMessageSchema, { kind: { case: 'heartbeat', value: { runningJobIds } } }),
    ),
  );
const drain = envelope(
  toBinary(AgentMessageSchema, create(AgentMessageSchema, { kind: { case: 'drain', value: {} } })),
);

describe('the direct Session path answers as Connect does', () => {
  const cases: [string, Buffer, string?][] = [
    ['messages answered in order, then the end', Buffer.concat([heartbeat('a'), drain, heartbeat('b', 'c')])],
    ['no message at all', Buffer.alloc(0)],
    ['a refusal before any message', heartbeat('a'), 'refuse'],
    [
      'an error that is not a ConnectError, after one message',
      Buffer.concat([heartbeat('a'), heartbeat('b')]),
      'crash',
    ],
    ['an incomplete envelope at the end', Buffer.concat([heartbeat('a'), Buffer.from([0, 0])])],
    ['a compressed envelope without grpc-encoding', envelope(Buffer.from([0x0a, 0x00]), 1)],
    ['bytes that are not an AgentMessage', envelope(Buffer.from([0xff, 0xff, 0xff]))],
    ['a message over the size limit', envelope(Buffer.alloc(MAX + 10))],
  ];
  for (const [name, body, id] of cases)
    it(name, async () => {
      const before = ports.taken;
      const direct = await raw(ports.direct, body, id);
      expect(ports.taken).toBe(before + 1);
      expect(direct).toEqual(await raw(ports.connect, body, id));
    });

  it("holds a session with Connect's client: answers as messages arrive, the signal aborted when it leaves", async () => {
    const client = createClient(
      AgentService,
      createGrpcTransport({ baseUrl: `http://127.0.0.1:${ports.direct}` }),
    );
    const up = new AsyncQueue<MessageInitShape<typeof AgentMessageSchema>>();
    const leave = new AbortController();
    const abortedBefore = aborted;
    const stream = client.session(up, { signal: leave.signal, headers: { 'x-agent-session': 's-2' } });
    const it = stream[Symbol.asyncIterator]();
    up.push({ kind: { case: 'heartbeat', value: { runningJobIds: ['j1'] } } });
    const first = await it.next();
    expect(first.value?.kind).toEqual({
      case: 'heartbeatAck',
      value: expect.objectContaining({ cancelJobIds: ['j1'] }),
    });
    up.push({ kind: { case: 'heartbeat', value: { runningJobIds: ['j2', 'j3'] } } });
    const second = await it.next();
    expect(second.value?.kind.value).toMatchObject({ cancelJobIds: ['j2', 'j3'] });
    leave.abort();
    await it.next().catch(() => undefined);
    await waitFor(async () => aborted > abortedBefore || undefined, { timeoutMs: 10_000 });
  });
});

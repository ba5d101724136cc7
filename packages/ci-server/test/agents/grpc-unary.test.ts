// The direct path for ReportJob, PushLogs and PushLogBatches (src/agents/grpc-unary.ts) against Connect
// itself: the same raw HTTP/2 requests sent to a server with the direct path and to one with Connect alone
// must get the same answer — status, content type, grpc-status, grpc-message and body — for a good call, a
// refusal, an internal error and every malformed envelope; a compressed call is left to Connect; and
// Connect's own client reads the direct path's answers (an ack, a refusal with its code and message, a
// PushLogBatches result per batch).
import { connect as http2Connect } from 'node:http2';
import {
  AgentService,
  type JobReport,
  JobReportAckSchema,
  JobReportSchema,
  LogAckSchema,
  type LogBatch,
  type LogBatches,
  LogBatchesSchema,
  LogBatchResultsSchema,
  LogBatchSchema,
} from '@app/ci-proto';
import { create, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { compressionGzip, connectNodeAdapter, createGrpcTransport } from '@connectrpc/connect-node';
import { describe, expect, it } from 'vitest';
import { directUnaryCalls } from '../../src/agents/grpc-unary.js';
import { differentialServers } from './differential-servers.fixture.js';

const PATH = `/${AgentService.typeName}/ReportJob`;
const PUSH_LOGS = `/${AgentService.typeName}/PushLogs`;
const PUSH_LOG_BATCHES = `/${AgentService.typeName}/PushLogBatches`;
const MAX = 1024;

/** What the fake implementation does, by job run id. */
async function reportJob(req: JobReport, session: string): Promise<object> {
  if (req.jobRunId === 'refuse')
    throw new ConnectError(`job run is not yours, ${session} % ü`, Code.PermissionDenied);
  if (req.jobRunId === 'crash') throw new Error('secret internals');
  return {};
}

/** Answers with a plain init object, not a message, as the real PushLogs does (`{ ackedSeq }`). */
async function pushLogs(req: LogBatch): Promise<object> {
  return { ackedSeq: BigInt(req.lines.length + 40) };
}

/**
 * PushLogBatches as the real one answers: a result per batch (a refusal in its result, job run `refuse`), or
 * the whole call refused (job run `refuse-call`).
 */
async function pushLogBatches(req: LogBatches): Promise<object> {
  if (req.batches.some((b) => b.jobRunId === 'refuse-call'))
    throw new ConnectError('at most 1024 batches per call', Code.InvalidArgument);
  return {
    results: req.batches.map((b) =>
      b.jobRunId === 'refuse'
        ? { jobRunId: b.jobRunId, code: Code.PermissionDenied, message: 'not yours ü' }
        : { jobRunId: b.jobRunId, ackedSeq: BigInt(b.lines.length + 40) },
    ),
  };
}

const connect = connectNodeAdapter({
  routes: (router) =>
    router.service(AgentService, {
      reportJob: (req, ctx) => reportJob(req, ctx.requestHeader.get('x-agent-session') ?? ''),
      pushLogs: (req) => pushLogs(req),
      pushLogBatches: (req) => pushLogBatches(req),
    }),
  grpc: true,
  grpcWeb: false,
  connect: false,
  readMaxBytes: MAX,
});
const direct = directUnaryCalls(
  new Map([
    [
      PATH,
      {
        input: JobReportSchema,
        output: JobReportAckSchema,
        handle: (req: JobReport, header: (name: string) => string | undefined) =>
          reportJob(req, header('x-agent-session') ?? ''),
      },
    ],
    [PUSH_LOGS, { input: LogBatchSchema, output: LogAckSchema, handle: (req: LogBatch) => pushLogs(req) }],
    [
      PUSH_LOG_BATCHES,
      {
        input: LogBatchesSchema,
        output: LogBatchResultsSchema,
        handle: (req: LogBatches) => pushLogBatches(req),
      },
    ],
  ]),
  MAX,
);
const ports = differentialServers(connect, direct);

interface Answer {
  status: number;
  contentType: string | undefined;
  grpcStatus: string | undefined;
  grpcMessage: string | undefined;
  body: string;
}

/** One raw gRPC call: the body as given (an envelope or not). */
function raw(port: number, body: Buffer, headers: Record<string, string> = {}, path = PATH): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(`http://127.0.0.1:${port}`);
    session.on('error', reject);
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc+proto',
      te: 'trailers',
      'x-agent-session': 's-1',
      ...headers,
    });
    const answer: Partial<Answer> = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      answer.status = Number(h[':status']);
      answer.contentType = h['content-type'] as string | undefined;
      // A trailers-only answer carries the status in its headers.
      answer.grpcStatus = h['grpc-status'] as string | undefined;
      answer.grpcMessage = h['grpc-message'] as string | undefined;
    });
    stream.on('trailers', (t) => {
      answer.grpcStatus = t['grpc-status'] as string | undefined;
      answer.grpcMessage = t['grpc-message'] as string | undefined;
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('close', () => {
      session.close();
      resolve({ ...(answer as Answer), body: Buffer.concat(chunks).toString('hex') });
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
const report = (jobRunId: string) =>
  toBinary(JobReportSchema, create(JobReportSchema, { jobRunId, kind: { case: 'started', value: {} } }));

describe('the direct ReportJob path answers as Connect does', () => {
  const cases: [string, Buffer][] = [
    ['a good call', envelope(report('0195a0b0-0000-7000-8000-000000000001'))],
    ['a refusal (code and percent-encoded message)', envelope(report('refuse'))],
    ['an error that is not a ConnectError (no internals shown)', envelope(report('crash'))],
    ['no message at all', Buffer.alloc(0)],
    ['an incomplete envelope header', Buffer.from([0, 0, 0])],
    ['an envelope shorter than it promised', envelope(report('x')).subarray(0, 6)],
    ['two messages on a unary call', Buffer.concat([envelope(report('a')), envelope(report('b'))])],
    ['a compressed envelope without grpc-encoding', envelope(report('a'), 1)],
    ['a message over the size limit', envelope(Buffer.alloc(MAX + 10))],
    ['bytes that are not a JobReport', envelope(Buffer.from([0xff, 0xff, 0xff]))],
  ];
  for (const [name, body] of cases)
    it(name, async () => {
      const before = ports.taken;
      const direct = await raw(ports.direct, body);
      expect(ports.taken).toBe(before + 1);
      const connect = await raw(ports.connect, body);
      expect(direct).toEqual(connect);
    });

  it('an answer the implementation gives as a plain init object (PushLogs: `{ ackedSeq }`)', async () => {
    const batch = toBinary(
      LogBatchSchema,
      create(LogBatchSchema, {
        jobRunId: 'j',
        lines: [
          { seq: 1n, text: 'a' },
          { seq: 2n, text: 'b' },
        ],
      }),
    );
    const before = ports.taken;
    const direct = await raw(ports.direct, envelope(batch), {}, PUSH_LOGS);
    expect(ports.taken).toBe(before + 1);
    expect(direct).toEqual(await raw(ports.connect, envelope(batch), {}, PUSH_LOGS));
    expect(direct.grpcStatus).toBe('0');
    // The ack's field is on the wire: field 1 varint 42.
    expect(direct.body).toBe(`000000000208${(42).toString(16)}`);
  });

  it('PushLogBatches: results per batch (one refused), a refused call, and bytes that are not LogBatches', async () => {
    const batches = (...jobs: string[]) =>
      toBinary(
        LogBatchesSchema,
        create(LogBatchesSchema, {
          batches: jobs.map((jobRunId) => ({ jobRunId, lines: [{ seq: 1n, text: 'a' }] })),
        }),
      );
    for (const body of [
      envelope(batches('own-1', 'refuse', 'own-2')),
      envelope(batches('own', 'refuse-call')),
      envelope(batches()),
      envelope(Buffer.from([0x0a, 0xff])),
    ]) {
      const before = ports.taken;
      const direct = await raw(ports.direct, body, {}, PUSH_LOG_BATCHES);
      expect(ports.taken).toBe(before + 1);
      expect(direct).toEqual(await raw(ports.connect, body, {}, PUSH_LOG_BATCHES));
    }
    // Connect's client reads the direct path's results: the refused batch's code and message in its result.
    const client = createClient(
      AgentService,
      createGrpcTransport({ baseUrl: `http://127.0.0.1:${ports.direct}` }),
    );
    const answer = await client.pushLogBatches({
      batches: [
        { jobRunId: 'own', lines: [{ seq: 1n }, { seq: 2n }] },
        { jobRunId: 'refuse', lines: [{ seq: 1n }] },
      ],
    });
    expect(answer.results.map((r) => [r.jobRunId, r.ackedSeq, r.code, r.message])).toEqual([
      ['own', 42n, 0, ''],
      ['refuse', 0n, Code.PermissionDenied, 'not yours ü'],
    ]);
  });

  it('leaves a compressed call to Connect, which serves it', async () => {
    const client = createClient(
      AgentService,
      createGrpcTransport({ baseUrl: `http://127.0.0.1:${ports.direct}`, sendCompression: compressionGzip }),
    );
    const before = ports.taken;
    // The client names gzip on every call (it compresses messages above 1 KiB only): Connect's to serve.
    await expect(
      client.reportJob({ jobRunId: 'small', kind: { case: 'started', value: {} } }),
    ).resolves.toBeDefined();
    expect(ports.taken).toBe(before);
  });

  it("is read by Connect's client: an ack, and a refusal with its code and message", async () => {
    const client = createClient(
      AgentService,
      createGrpcTransport({ baseUrl: `http://127.0.0.1:${ports.direct}` }),
    );
    const before = ports.taken;
    await expect(
      client.reportJob({ jobRunId: 'ok', kind: { case: 'finished', value: { status: 'success' } } }),
    ).resolves.toBeDefined();
    const err = await client
      .reportJob(
        { jobRunId: 'refuse', kind: { case: 'started', value: {} } },
        { headers: { 'x-agent-session': 's-9' } },
      )
      .catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.PermissionDenied, rawMessage: 'job run is not yours, s-9 % ü' });
    expect(ports.taken).toBe(before + 2);
  });
});

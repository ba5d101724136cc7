// The agent's log courier (src/log-courier.ts): the batches its shippers hand over in one turn go in one
// PushLogBatches call and each shipper gets its own job's answer (an ack, or the refusal of its batch alone);
// batches of later turns go in later calls; a call is split past its bounds; a failed call fails each of its
// batches. Against a control plane that predates PushLogBatches — a real Connect server on loopback serving
// PushLogs only, as an old server's router does — every batch still arrives, by PushLogs, and the courier keeps
// to PushLogs for that session and tries PushLogBatches again on a new one.
import { type CourierCalls, LogCourier, type ShippedLine } from '@app/ci-agent';
import { AgentService, type LogBatch } from '@app/ci-proto';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { describe, expect, it } from 'vitest';
import { connectDoubles } from './connect-double.js';

const lines = (from: number, to: number): ShippedLine[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    seq: BigInt(from + i),
    stream: 'stdout',
    atMs: 1n,
    text: `line ${from + i}`,
  }));

/** Calls recorded: each PushLogBatches call's job runs, each PushLogs call's job run. */
function fakeCalls(answer?: (jobRunId: string) => { code: number; message: string }) {
  const many: string[][] = [];
  const one: string[] = [];
  let session = 's1';
  const calls: CourierCalls = {
    many: async (batches) => {
      many.push(batches.map((b) => b.jobRunId));
      return batches.map((b) => ({
        ackedSeq: b.lines.length > 0 ? b.lines[b.lines.length - 1].seq : 0n,
        ...(answer?.(b.jobRunId) ?? { code: 0, message: '' }),
      }));
    },
    one: async (b) => {
      one.push(b.jobRunId);
      return Number(b.lines[b.lines.length - 1].seq);
    },
    session: () => session,
  };
  return {
    calls,
    many,
    one,
    newSession: (id: string) => {
      session = id;
    },
  };
}

const nextTurn = () => new Promise((r) => setImmediate(r));

describe('log courier', () => {
  it("sends the batches handed over in one turn in one call, and answers each with its own job's ack", async () => {
    const f = fakeCalls();
    const courier = new LogCourier(f.calls);
    const acks = await Promise.all([
      courier.send('job-a', lines(1, 3)),
      courier.send('job-b', lines(1, 1)),
      courier.send('job-a', lines(4, 5)),
    ]);
    expect(acks).toEqual([3, 1, 5]);
    expect(f.many).toEqual([['job-a', 'job-b', 'job-a']]);
    expect(f.one).toEqual([]);
    // A later turn's batch goes in a call of its own.
    await nextTurn();
    await courier.send('job-c', lines(1, 2));
    expect(f.many).toEqual([['job-a', 'job-b', 'job-a'], ['job-c']]);
  });

  it('a refused batch fails alone, with the code and message of its refusal', async () => {
    const f = fakeCalls((job) =>
      job === 'foreign'
        ? { code: Code.PermissionDenied, message: 'job run foreign is not assigned to this agent' }
        : { code: 0, message: '' },
    );
    const courier = new LogCourier(f.calls);
    const [own, foreign] = await Promise.allSettled([
      courier.send('own', lines(1, 2)),
      courier.send('foreign', lines(1, 2)),
    ]);
    expect(own).toEqual({ status: 'fulfilled', value: 2 });
    expect(foreign.status).toBe('rejected');
    const err = ConnectError.from((foreign as PromiseRejectedResult).reason);
    expect(err.code).toBe(Code.PermissionDenied);
    expect(err.rawMessage).toBe('job run foreign is not assigned to this agent');
  });

  it('fails every batch of a call that failed (the shippers retry their own)', async () => {
    const courier = new LogCourier({
      many: async () => {
        throw new ConnectError('the control plane is restarting', Code.Unavailable);
      },
      one: async () => 0,
    });
    const outcomes = await Promise.allSettled([
      courier.send('a', lines(1, 1)),
      courier.send('b', lines(1, 1)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(ConnectError.from((outcomes[0] as PromiseRejectedResult).reason).code).toBe(Code.Unavailable);
  });

  it('splits a turn of more than 256 batches into several calls', async () => {
    const f = fakeCalls();
    const courier = new LogCourier(f.calls);
    await Promise.all(Array.from({ length: 600 }, (_, i) => courier.send(`job-${i}`, lines(1, 1))));
    expect(f.many.map((c) => c.length)).toEqual([256, 256, 88]);
  });

  it('splits a turn whose text could encode past half the 32 MiB a control plane reads', async () => {
    const f = fakeCalls();
    const courier = new LogCourier(f.calls);
    // 2,000 lines of 1,000 three-byte characters: 6 MB of UTF-8 a batch, two to a call. Counted in characters
    // (2 million a batch) all four went in one call of 24 MB.
    const wide = (n: number): ShippedLine[] => lines(1, n).map((l) => ({ ...l, text: '€'.repeat(1000) }));
    await Promise.all(Array.from({ length: 4 }, (_, i) => courier.send(`job-${i}`, wide(2000))));
    expect(f.many.map((c) => c.length)).toEqual([2, 2]);
  });

  it('keeps to PushLogs for a session whose server answered UNIMPLEMENTED, and tries again on a new one', async () => {
    const f = fakeCalls();
    let unimplemented = true;
    const calls: CourierCalls = {
      ...f.calls,
      many: async (batches) => {
        if (unimplemented) throw new ConnectError('', Code.Unimplemented);
        return f.calls.many(batches);
      },
    };
    const courier = new LogCourier(calls);
    expect(await Promise.all([courier.send('a', lines(1, 2)), courier.send('b', lines(1, 4))])).toEqual([
      2, 4,
    ]);
    expect(f.one).toEqual(['a', 'b']);
    await nextTurn();
    unimplemented = false;
    expect(await courier.send('a', lines(3, 3))).toBe(3);
    expect(f.one).toEqual(['a', 'b', 'a']);
    expect(f.many).toEqual([]);
    // The agent registered again (perhaps with an upgraded server): PushLogBatches is tried again.
    f.newSession('s2');
    await nextTurn();
    expect(await courier.send('a', lines(4, 4))).toBe(4);
    expect(f.many).toEqual([['a']]);
  });
});

describe('log courier against a control plane that predates PushLogBatches', () => {
  const startDouble = connectDoubles();

  it('delivers every batch by PushLogs (the old server stores them; nothing is lost or sent twice)', async () => {
    const stored = new Map<string, bigint[]>();
    // An old server's router: the methods it knew, PushLogs among them; PushLogBatches is an unknown path.
    const port = await startDouble((router) =>
      router.rpc(AgentService.method.pushLogs, async (req: LogBatch) => {
        const seqs = stored.get(req.jobRunId) ?? [];
        seqs.push(...req.lines.map((l) => l.seq));
        stored.set(req.jobRunId, seqs);
        return { ackedSeq: seqs[seqs.length - 1] };
      }),
    );
    const client = createClient(AgentService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));
    let many = 0;
    const courier = new LogCourier({
      many: async (batches) => {
        many++;
        return (await client.pushLogBatches({ batches })).results;
      },
      one: async (batch) => Number((await client.pushLogs(batch)).ackedSeq),
      session: () => 'only',
    });
    const acks = await Promise.all([courier.send('a', lines(1, 3)), courier.send('b', lines(1, 2))]);
    expect(acks).toEqual([3, 2]);
    await nextTurn();
    expect(await courier.send('a', lines(4, 4))).toBe(4);
    expect(Object.fromEntries(stored)).toEqual({ a: [1n, 2n, 3n, 4n], b: [1n, 2n] });
    // Asked once; the session's later batches went straight to PushLogs.
    expect(many).toBe(1);
    expect(courier.stats).toMatchObject({ many: 1, one: 3 });
  });
});

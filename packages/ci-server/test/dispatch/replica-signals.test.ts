// Replica signals on the real PostgreSQL of the test setup: what one replica commits (run changes, stored log
// lines) wakes the others through LISTEN/NOTIFY, never itself; a large matrix's job ids arrive whole across
// several notifications; the run changes of one turn leave in one statement, in order; and a listening connection cut by a database outage reconnects and asks for a
// resync (notifications sent meanwhile are lost).
import { freePort, waitFor } from '@app/kit';
import { createPostgresDatabase } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Effect } from '../../src/domain/index.js';
import { type RunChange, RunEvents } from '../../src/events/run-events.js';
import { LogHub } from '../../src/logs/hub.js';
import type { StoredLogLine } from '../../src/logs/types.js';
import { ReplicaSignals } from '../../src/replicas/replica-signals.js';
import { TcpProxy } from '../e2e/tcp-proxy.js';

interface Replica {
  signals: ReplicaSignals;
  events: RunEvents;
  hub: LogHub;
  remote: RunChange[];
  resyncs: number;
}

function replica(url: string): Replica {
  const events = new RunEvents();
  const hub = new LogHub();
  const self: Replica = {
    events,
    hub,
    remote: [],
    resyncs: 0,
    signals: new ReplicaSignals({
      url,
      events,
      hub,
      resync: async () => {
        self.resyncs++;
      },
      log: { warn: () => undefined },
    }),
  };
  events.on('remote', (change) => self.remote.push(change));
  // As server.ts subscribes it: this process's changes go to the other replicas.
  events.on('change', (change) => self.signals.announceChange(change));
  return self;
}

const line = (cursor: number): StoredLogLine => ({
  cursor,
  job_run_id: '00000000-0000-7000-8000-000000000001',
  seq: cursor,
  stream: 'stdout',
  at: new Date().toISOString(),
  text: `line ${cursor}`,
});

// Bounds only: a wait ends as soon as its condition holds.
const LONG = 60_000;

let url: string;
const started: Replica[] = [];
const proxies: TcpProxy[] = [];
beforeAll(async () => {
  url = await createPostgresDatabase(inject('services').postgresUrl, 'ci_signals');
});
afterAll(async () => {
  for (const r of started) await r.signals.stop();
  for (const p of proxies) await p.cut();
});

async function up(target = url): Promise<Replica> {
  const r = replica(target);
  started.push(r);
  await r.signals.start();
  await waitFor(async () => r.signals.listening, { what: 'the listener', timeoutMs: LONG });
  return r;
}

describe('replica signals over LISTEN/NOTIFY', () => {
  it('relay run changes to the other replica only, whole however many jobs were queued', async () => {
    const a = await up();
    const b = await up();
    const queued: Effect[] = Array.from({ length: 400 }, (_, i) => ({
      kind: 'enqueue',
      jobId: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    }));
    a.events.publish({
      runId: 'run-1',
      effects: [...queued, { kind: 'stage-started', stage: 'build' }, { kind: 'cancel-agent', jobId: 'j-9' }],
    });
    const got = await waitFor(
      async () => {
        const effects = b.remote.flatMap((c) => c.effects);
        return effects.length >= 401 ? effects : undefined;
      },
      { what: 'the changes on the other replica', timeoutMs: LONG },
    );
    // Several notifications (one payload holds about 7,500 bytes), nothing lost, stage effects not relayed.
    expect(b.remote.length).toBeGreaterThan(1);
    expect(b.remote.every((c) => c.runId === 'run-1')).toBe(true);
    expect(got.filter((e) => e.kind === 'enqueue').map((e) => (e as { jobId: string }).jobId)).toEqual(
      queued.map((e) => (e as { jobId: string }).jobId),
    );
    expect(got.filter((e) => e.kind === 'cancel-agent')).toEqual([{ kind: 'cancel-agent', jobId: 'j-9' }]);
    expect(got.some((e) => e.kind === 'stage-started')).toBe(false);
    // The sender hears its own notifications and skips them; a round trip through B proves they arrived.
    b.events.publish({ runId: 'run-2', effects: [{ kind: 'run-finished', status: 'success' }] });
    await waitFor(async () => a.remote.some((c) => c.runId === 'run-2'), { what: 'B → A', timeoutMs: LONG });
    expect(a.remote.every((c) => c.runId === 'run-2')).toBe(true);
  });

  it('send the run changes of one turn in one statement, each its own notification, in order', async () => {
    const a = await up();
    const b = await up();
    const rounds = a.signals.stats.runRounds;
    const runs = Array.from({ length: 5 }, (_, i) => `run-turn-${i}`);
    for (const runId of runs)
      a.events.publish({ runId, effects: [{ kind: 'run-finished', status: 'success' }] });
    await waitFor(async () => b.remote.length >= runs.length, { what: 'the five changes', timeoutMs: LONG });
    expect(b.remote.map((c) => c.runId)).toEqual(runs);
    expect(b.remote.every((c) => c.effects[0]?.kind === 'run-finished')).toBe(true);
    expect(a.signals.stats.runRounds - rounds).toBe(1);
  });

  it('wake the followers of a run on the other replica when lines are stored', async () => {
    const a = await up();
    const b = await up();
    const onB = b.hub.subscribe('run-logs');
    const onA = a.hub.subscribe('run-logs');
    const other = b.hub.subscribe('another-run');
    a.hub.publish('run-logs', [line(1), line(2)]);
    // `stored`, not `timeout`: the notification ended the wait.
    expect(await onB.wait(LONG)).toBe('stored');
    // The writer's own follower has the lines in hand, and no `stored` hint from its own notification.
    expect(
      onA
        .take()
        .batches.flat()
        .map((l) => l.cursor),
    ).toEqual([1, 2]);
    b.hub.publish('another-run', [line(1)]);
    expect(await other.wait(LONG)).toBe('data');
    await waitFor(async () => a.signals.stats.received >= 1, { what: 'B → A', timeoutMs: LONG });
    expect(await onA.wait(0)).toBe('timeout');
    for (const s of [onA, onB, other]) s.close();
  });

  it('reconnect after the database went away, and ask for a resync', async () => {
    const target = new URL(url);
    const proxy = new TcpProxy(await freePort(), [{ host: target.hostname, port: Number(target.port) }]);
    proxies.push(proxy);
    await proxy.up();
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    const a = await up();
    const b = await up(target.toString());
    const follower = b.hub.subscribe('after-outage');
    await proxy.cut();
    await waitFor(async () => !b.signals.listening, { what: 'the lost listener', timeoutMs: LONG });
    // Sent while B cannot listen: lost for B, which is why it resyncs.
    a.events.publish({ runId: 'during', effects: [{ kind: 'enqueue', jobId: 'lost' }] });
    await proxy.up();
    await waitFor(async () => b.signals.listening, { what: 'the listener back', timeoutMs: LONG });
    expect(b.signals.stats.reconnects).toBeGreaterThanOrEqual(1);
    expect(b.resyncs).toBeGreaterThanOrEqual(1);
    // Every follower re-reads the store after a reconnection.
    expect(await follower.wait(LONG)).toBe('stored');
    a.events.publish({ runId: 'after', effects: [{ kind: 'enqueue', jobId: 'j-after' }] });
    await waitFor(async () => b.remote.some((c) => c.runId === 'after'), {
      what: 'A → B again',
      timeoutMs: LONG,
    });
    follower.close();
  });
});

// Two control-plane replicas on one real PostgreSQL (issue 21), with real agent processes: replica A is its
// own process (so it can be SIGKILLed), replica B runs in this process (so its dispatcher and leases can be
// read). Agents reach the replicas directly or through a TCP balancer in front of both (gRPC pass-through).
// Proved here: a job queued through A is claimed by an agent connected only to B although B never resyncs
// its queue from the store during the test (its sweep period is ten minutes: only A's NOTIFY can tell it);
// lines stored through A reach a live SSE follower on B, and a stream read on A resumes on B with
// Last-Event-ID; SIGKILLing A mid-job moves its agent to B, the job finishes on its first attempt with every
// line once, and B takes over the leader leases (trigger timers and retention); a cron schedule fires once
// per minute while both replicas run and again, once, from B after A is gone. No timing is asserted.
// B's trigger clock (schedules and the leader lease) is the test's: once A is dead it is moved on a minute,
// so A's lease has lapsed and the next fire time has passed for B without waiting for either in real time.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, openDatabase, waitFor } from '@app/kit';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  AGENT_TOKEN,
  type AgentProcess,
  type Api,
  api,
  type E2eServer,
  makeRepo,
  type Repo,
  type SseEvent,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';
import { killServerProcesses, type ServerProcess, startServerProcess } from './server-process.js';
import { TcpProxy } from './tcp-proxy.js';

const LINES = 80;
const LONG = 120_000;

let url: string;
let a: ServerProcess;
let aGrpc: number;
let b: E2eServer;
let balancer: TcpProxy;
let repo: Repo;
const agents: AgentProcess[] = [];
/** How far B's trigger clock is ahead of the real one. */
let bClockAheadMs = 0;

/**
 * Every firing of the `ticker` schedule (one row per fire time) and the cron runs of its pipeline, read in
 * one snapshot: a firing committed between two separate reads (A's last COMMIT can land after its SIGKILL)
 * would show as a run without its firing.
 */
async function cronFirings(pipelineId: string) {
  const database = openDatabase(url);
  try {
    return await database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx: typeof database.db) => {
        const firings = await trx
          .selectFrom('cron_firings')
          .select(['fire_at', 'run_ids'])
          .where('schedule_key', 'like', `material:${pipelineId}:%`)
          .orderBy('fire_at')
          .execute();
        const runs = await trx
          .selectFrom('runs')
          .select('id')
          .where('pipeline_id', '=', pipelineId)
          .where('cause', '=', 'cron')
          .execute();
        return {
          fireAts: firings.map((f: { fire_at: string }) => f.fire_at),
          runIds: firings.flatMap((f: { run_ids: string }) => JSON.parse(f.run_ids) as string[]).sort(),
          cronRuns: runs.map((r: { id: string }) => r.id).sort(),
        };
      });
  } finally {
    await database.close();
  }
}

/** A schedule's firings so far made exactly one run each: no replica fired one a second time. */
async function expectFiredOnce(pipelineId: string) {
  const { fireAts, runIds, cronRuns } = await cronFirings(pipelineId);
  expect(new Set(fireAts).size).toBe(fireAts.length);
  expect(runIds).toHaveLength(fireAts.length);
  expect(cronRuns).toEqual(runIds);
  return fireAts;
}

async function leaseHolders(): Promise<Map<string, string>> {
  const database = openDatabase(url);
  try {
    const rows = await database.db.selectFrom('leader_leases').select(['name', 'holder']).execute();
    return new Map(rows.map((r: { name: string; holder: string }) => [r.name, r.holder]));
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  url = await createPostgresDatabase(inject('services').postgresUrl, 'ci_replicas');
  repo = makeRepo();
  const dataDir = tempDir('replica-a-');
  const config = join(dataDir, 'ci.yaml');
  // A short archive pass keeps the retention lease short (three passes), so its failover is quick.
  writeFileSync(config, 'retention:\n  archive_interval: 2s\n');
  // A free port can be taken by a parallel test before the child binds it: a start-up that dies is retried
  // on fresh ports.
  for (let attempt = 1; ; attempt++) {
    aGrpc = await freePort();
    a = startServerProcess({
      CI_DATA_DIR: dataDir,
      CI_HTTP_PORT: String(await freePort()),
      CI_GRPC_PORT: String(aGrpc),
      CI_DATABASE_URL: url,
      CI_AGENT_TOKEN: AGENT_TOKEN,
      CI_SECRET_KEY: '1'.repeat(64),
      CI_AUTH_ENABLED: 'false',
      CI_CONFIG: config,
      LOG_LEVEL: 'warn',
    });
    try {
      await a.ready();
      break;
    } catch (err) {
      await a.stop();
      if (attempt === 3) throw err;
    }
  }
  // A leads before B exists, so the failover below is A's leases passing to B.
  await waitFor(async () => (await leaseHolders()).size >= 2, { what: 'A to lead', timeoutMs: LONG });
  b = await startServer({
    databaseUrl: url,
    // Default heartbeat and lease (as A); a sweep (and with it the dispatcher's resync) every ten minutes.
    agentTiming: { sweepMs: 600_000 },
    triggers: { leaseTtlMs: 15_000, now: () => new Date(Date.now() + bClockAheadMs) },
    archiveEveryMs: 2_000,
  });
  balancer = new TcpProxy(await freePort(), [
    { host: '127.0.0.1', port: aGrpc },
    { host: '127.0.0.1', port: b.grpcPort },
  ]);
  await balancer.up();
}, LONG);

afterAll(async () => {
  for (const agent of agents) await agent.stop();
  await balancer?.cut();
  await b?.server.close();
  await killServerProcesses();
});

/** Reads a run's SSE stream until `enough` says so or the server ends it. */
async function stream(
  base: string,
  runId: string,
  options: { lastEventId?: string; enough?: (events: SseEvent[]) => boolean } = {},
): Promise<SseEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LONG);
  const res = await fetch(`${base}/api/v1/runs/${runId}/logs/stream`, {
    headers: options.lastEventId ? { 'last-event-id': options.lastEventId } : {},
    signal: controller.signal,
  });
  if (!res.ok || !res.body) throw new Error(`stream: ${res.status}`);
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of res.body) {
      text += decoder.decode(chunk, { stream: true });
      let end = text.indexOf('\n\n');
      while (end >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const ev: Partial<SseEvent> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) ev.event = line.slice(7);
          else if (line.startsWith('id: ')) ev.id = line.slice(4);
          else if (line.startsWith('data: ')) ev.data = JSON.parse(line.slice(6));
        }
        if (ev.event === 'log') events.push(ev as SseEvent);
        if (options.enough?.(events)) return events;
        end = text.indexOf('\n\n');
      }
    }
    return events;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

const printed = (events: SseEvent[]) =>
  events.map((e) => e.data.text as string).filter((t) => t.startsWith('line '));
const expected = Array.from({ length: LINES }, (_, i) => `line ${i + 1}`);

// Fires every minute; its job needs an agent that never comes, so its runs stay queued and cost nothing.
const ticker = () => `name: ticker
materials:
  - git: { url: "${repo.url}", branch: main }
  - cron: { expression: "* * * * *" }
stages: [work]
jobs:
  tick: { stage: work, tags: [nobody], script: ["true"] }`;

const pipeline = (name: string, tag: string, sleep: string) => `name: ${name}
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [work]
jobs:
  print:
    stage: work
    tags: [${tag}]
    script:
      - 'for i in $(seq 1 ${LINES}); do echo "line $i"; sleep ${sleep}; done'`;

describe('two replicas on one PostgreSQL', () => {
  let viaA: Api;
  let ids: Record<string, string>;

  it(
    'a job queued through A goes at once to an agent connected only to B',
    async () => {
      viaA = api(a.base);
      ids = await viaA.apply('replicas', [
        pipeline('on-b', 'b-only', '0'),
        pipeline('live', 'lb', '0.05'),
        pipeline('killed', 'lb', '0.15'),
        ticker(),
      ]);
      const onB = startAgent(b.grpcPort, 'agent-b', { tags: 'b-only' });
      agents.push(onB);
      await waitForAgents(b.server, ['agent-b']);
      const claimedBefore = b.server.control.dispatcher.stats.claimed;
      const runId = await viaA.trigger(ids['on-b'], { git_ref: repo.head });
      // B's own resync runs every ten minutes; this bound is far shorter, so B heard of the job from A.
      const run = await viaA.waitRun(runId, undefined, LONG);
      expect(run.status).toBe('success');
      const [job] = viaA.jobs(run);
      expect(job.agent).toBe('agent-b');
      expect(job.attempt).toBe(1);
      expect(b.server.control.dispatcher.stats.claimed).toBe(claimedBefore + 1);
      expect(b.server.replicas?.stats.received).toBeGreaterThan(0);
    },
    LONG,
  );

  it(
    'lines stored through A stream live on B, and a stream read on A resumes on B',
    async () => {
      // Through the balancer, which sends new connections to A while A is up.
      const agent = startAgent(balancer.port, 'agent-lb', { tags: 'lb' });
      agents.push(agent);
      await waitFor(async () => (balancer.connections.get(aGrpc) ?? 0) > 0, {
        what: 'the agent on A',
        timeoutMs: LONG,
      });
      const heardBefore = b.server.replicas?.stats.received ?? 0;
      const runId = await viaA.trigger(ids.live, { git_ref: repo.head });
      const [live, firstPart] = await Promise.all([
        stream(b.base, runId),
        stream(a.base, runId, { enough: (events) => printed(events).length >= 20 }),
      ]);
      const rest = await stream(b.base, runId, { lastEventId: firstPart[firstPart.length - 1].id });
      expect(printed(live)).toEqual(expected);
      expect(printed([...firstPart, ...rest])).toEqual(expected);
      const cursors = [...firstPart, ...rest].map((e) => Number(e.id));
      expect(new Set(cursors).size).toBe(cursors.length);
      const run = await viaA.waitRun(runId, undefined, LONG);
      expect(viaA.jobs(run)[0].agent).toBe('agent-lb');
      // B was told of A's lines (and of the run's changes) by notification.
      expect(b.server.replicas?.stats.received ?? 0).toBeGreaterThan(heardBefore);
    },
    LONG,
  );

  it(
    'with both replicas up, a cron schedule fires once per minute (only the leader ticks)',
    async () => {
      await waitFor(async () => (await cronFirings(ids.ticker)).fireAts.length > 0, {
        what: 'a cron firing',
        timeoutMs: LONG,
        intervalMs: 500,
      });
      await expectFiredOnce(ids.ticker);
      // A leads the trigger timers (it did before B started); B's ticks do nothing while A's lease holds.
      expect(b.server.triggers.schedulerStatus().leader).toBe(false);
    },
    LONG,
  );

  it(
    'SIGKILL of A: its agent moves to B, the job finishes once with every line, B takes the leases',
    async () => {
      const before = await leaseHolders();
      const bHolders = [
        b.server.triggers.schedulerStatus().holder,
        b.server.retention.scheduler.lease.holder,
      ];
      expect([...before.values()].some((h) => bHolders.includes(h))).toBe(false);
      const viaB = api(b.base);
      const runId = await viaA.trigger(ids.killed, { git_ref: repo.head });
      const follower = stream(b.base, runId);
      await waitFor(
        async () => (await viaB.run(runId)).stages[0].jobs[0].logs.some((l: any) => l.text === 'line 10'),
        { what: 'the job to be printing', timeoutMs: LONG },
      );
      await a.kill9();
      // Every firing so far was A's; any later one is B's.
      const firedByA = (await expectFiredOnce(ids.ticker)).length;
      await waitForAgents(b.server, ['agent-lb']);
      const run = await viaB.waitRun(runId, undefined, LONG);
      expect(run.status).toBe('success');
      const jobs = viaB.jobs(run);
      expect(jobs).toHaveLength(1);
      expect(jobs[0].attempt).toBe(1);
      const stored = (jobs[0].logs as { text: string }[])
        .map((l) => l.text)
        .filter((t) => t.startsWith('line '));
      expect(stored).toEqual(expected);
      expect(printed(await follower)).toEqual(expected);
      // The leader leases lapse (A cannot release them) and B's next ticks take them. A minute on B's clock
      // is past A's trigger lease (15 s from A's last renewal) and past the schedule's next fire time (at
      // most a minute after A's last tick); the retention lease lapses in real time (three 2 s passes).
      bClockAheadMs = 60_000;
      await waitFor(
        async () => b.server.triggers.schedulerStatus().leader && b.server.retention.scheduler.lease.isLeader,
        { what: 'B to lead', timeoutMs: LONG },
      );
      const after = await leaseHolders();
      expect(after.get('triggers')).toBe(bHolders[0]);
      expect(after.get('retention')).toBe(bHolders[1]);
      // The schedule goes on from B, still once per fire time.
      await expectFiredOnce(ids.ticker);
      await waitFor(async () => (await cronFirings(ids.ticker)).fireAts.length > firedByA, {
        what: 'a cron firing by B',
        timeoutMs: LONG,
        intervalMs: 500,
      });
      await expectFiredOnce(ids.ticker);
    },
    LONG * 3,
  );
});

// Benchmark: many browsers following one live run. BENCH_FOLLOWERS (default 1,000) SSE clients, in a child
// process so their memory is not the server's, follow `GET /api/v1/runs/{id}/logs/stream` of a running run
// while simulated agents push its lines through `LogStore.appendLogBatch` (what the PushLogs handler calls).
// Figures: the server's memory per attached follower (RSS and V8 heap, before and after they attach, idle),
// ingestion lines/s into the followed run as a ratio to the same push into a run nobody follows, and the
// server's CPU time from the first pushed line until every follower has every line, as a ratio to the CPU of
// the unfollowed push (the aim: at most 2× for 1,000 followers of 10,000 lines). BENCH_FOLLOW_ROUNDS rounds
// (default 3) alternate an unfollowed push and followed ones on fresh runs in the same server, one per
// encoding of BENCH_FOLLOW_MODES (default `plain,gzip`: followers without Accept-Encoding, and followers
// sending Accept-Encoding: gzip as browsers' EventSource does, decoding the stream); each figure
// is the median of its rounds, printed with its spread (min–max), because the machine is shared and one
// round alone swings several-fold. Also printed: user and system CPU apart (the kernel's copying of
// followers × bytes over loopback, which gzip shrinks 13×), the bytes each follower received, the
// encodings (and gzip compressions) per published batch (1: every follower writes the same bytes) and the store reads made for
// followers (0 past the first replay: followers that fell behind caught up from the ring, no cliff past the
// 2,000 lines a follower's own queue holds). Every follower must receive every line. SQLite file.
// Run with `npm run bench` or `node --expose-gc --import tsx bench/sse-followers.bench.ts` (the heap figure
// is taken after a collection when `gc` is exposed; without it the figure is noisy).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { tempDir } from '@app/kit/testing';
import type { CiServer } from '../packages/ci-server/src/index.js';
import { newJobRuns, PIPELINE, text } from './log-ingest.bench.js';
import { startProfile } from './process-cpu.js';
import { withServer } from './runs-list.bench.js';

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 1_000);
const LINES = Number(process.env.BENCH_FOLLOW_LINES ?? 500); // per job; the pipeline has 20 jobs
const ROUNDS = Number(process.env.BENCH_FOLLOW_ROUNDS ?? 3);
const BATCH = 50;
/**
 * BENCH_FOLLOW_YIELD=1: each simulated agent lets the event loop turn after each batch, as batches arriving
 * over gRPC do. Without it the in-process push (SQLite answers without I/O) holds the event loop until all
 * 10,000 lines are in, so the followers are written after it, in a few large writes.
 */
const YIELD = process.env.BENCH_FOLLOW_YIELD === '1';

// The followers: http.get streams counting `event: log` blocks; prints `ready` once every stream is open,
// then `{min,max,bytes}` of the lines each received once all have `expected` (or after the deadline). With
// `gzip` they send Accept-Encoding: gzip, as browsers' EventSource does, and count the decoded text
// (bytes: what came over the wire).
const FOLLOWER_SCRIPT = `
const http = require('node:http');
const zlib = require('node:zlib');
const [base, runId, n, expected, mode] = process.argv.slice(1);
const headers = mode === 'gzip' ? { 'accept-encoding': 'gzip' } : {};
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const counts = new Array(Number(n)).fill(0);
const finished = new Array(Number(n)).fill(false);
let open = 0, done = 0, bytes = 0;
const finish = () => { console.log(JSON.stringify({ min: Math.min(...counts), max: Math.max(...counts), bytes })); process.exit(0); };
setTimeout(finish, 300000).unref();
for (let i = 0; i < Number(n); i++) {
  http.get(base + '/api/v1/runs/' + runId + '/logs/stream', { agent, headers }, (res) => {
    if (++open === Number(n)) console.log('ready');
    if ((res.headers['content-encoding'] === 'gzip') !== (mode === 'gzip')) { console.error('unexpected encoding'); process.exit(1); }
    let tail = '';
    res.on('data', (chunk) => { bytes += chunk.length; });
    const text = mode === 'gzip' ? res.pipe(zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })) : res;
    text.setEncoding('utf8');
    text.on('data', (chunk) => {
      const text = tail + chunk;
      let at = 0;
      for (;;) { const k = text.indexOf('event: log', at); if (k < 0) break; counts[i]++; at = k + 10; }
      tail = text.slice(Math.max(at, text.length - 9));
      // Once per follower (a later keep-alive comment must not count it twice).
      if (!finished[i] && counts[i] === Number(expected)) { finished[i] = true; if (++done === Number(n)) finish(); }
    });
  }).on('error', (e) => { console.error(e.message); process.exit(1); });
}`;

const mb = (bytes: number) => bytes / 1024 / 1024;

/** BENCH_FOLLOW_PROFILE=<path prefix>: a V8 CPU profile of each followed round's measured window alone. */
const PROFILE = process.env.BENCH_FOLLOW_PROFILE;

async function push(server: CiServer, jobIds: string[]): Promise<number> {
  const t0 = process.hrtime.bigint();
  await Promise.all(
    jobIds.map(async (id, j) => {
      for (let from = 1; from <= LINES; from += BATCH) {
        if (YIELD) await new Promise((r) => setImmediate(r));
        await server.execution.logs.appendLogBatch(
          id,
          Array.from({ length: Math.min(BATCH, LINES - from + 1) }, (_, i) => ({
            seq: from + i,
            stream: 'stdout',
            atMs: Date.now(),
            text: text(j, from + i),
          })),
        );
      }
    }),
  );
  return (jobIds.length * LINES) / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function memory(): Promise<{ rss: number; heap: number }> {
  await new Promise((r) => setTimeout(r, 1_000));
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

/** How the followers ask for the stream: as they are, or with Accept-Encoding: gzip (browsers). */
export type FollowMode = 'plain' | 'gzip';

export interface FollowerResult {
  mode: FollowMode;
  followers: number;
  lines: number;
  rounds: number;
  rssPerFollowerKb: number;
  heapPerFollowerKb: number;
  /** Ingestion lines/s (medians of the rounds). */
  baseline: number;
  target: number;
  ratio: number;
  /** Server CPU ms of the unfollowed push, and from the followed push's start until every follower had every line (medians). */
  baselineCpuMs: number;
  followedCpuMs: number;
  cpuRatio: number;
  /** Min and max over the rounds of the per-round CPU ratio (followed / the same round's unfollowed). */
  cpuRatioSpread: [number, number];
  baselineCpuSpread: [number, number];
  followedCpuSpread: [number, number];
  /** Of the followed CPU (median round): user and system ms. */
  followedUserMs: number;
  followedSystemMs: number;
  /** Bytes each follower received over the wire (median round). */
  bytesPerFollower: number;
  /** Encodings (and gzip compressions) per published batch, and store reads for followers after they attached (all rounds). */
  encodesPerBatch: number;
  compressionsPerBatch: number;
  storeReads: number;
  everyLineToEveryFollower: boolean;
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

interface FollowedRound {
  rate: number;
  cpu: NodeJS.CpuUsage;
  report: { min: number; max: number; bytes: number };
  memory?: { before: { rss: number; heap: number }; attached: { rss: number; heap: number } };
  encodes: number;
  compressions: number;
  batches: number;
  storeReads: number;
  /** The hub's writes of live lines (at most one per follower and beat) and followers let go to catch up. */
  liveWrites: number;
  letGo: number;
  beats: number;
}

/** One followed round: FOLLOWERS clients attach to a fresh run, then its lines are pushed. */
async function followedRound(
  server: CiServer,
  httpPort: number,
  measureMemory: boolean,
  mode: FollowMode,
): Promise<FollowedRound> {
  const followed = await newJobRuns(server);
  const { run_id: runId } = await server.database.db
    .selectFrom('job_runs')
    .select('run_id')
    .where('id', '=', followed[0])
    .executeTakeFirstOrThrow();
  const before = measureMemory ? await memory() : undefined;
  const child = spawn(
    process.execPath,
    [
      '-e',
      FOLLOWER_SCRIPT,
      `http://127.0.0.1:${httpPort}`,
      runId,
      String(FOLLOWERS),
      String(20 * LINES),
      mode,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  child.stdout.setEncoding('utf8');
  let readyResolve: () => void = () => undefined;
  const ready = new Promise<void>((r) => {
    readyResolve = r;
  });
  // The report line is the end of the measurement: the child's own exit can lag (with a thousand gunzip
  // streams it once hung in process.exit for minutes), so it is stopped once it has reported.
  let reportedResolve: () => void = () => undefined;
  const reported = new Promise<void>((r) => {
    reportedResolve = r;
  });
  child.stdout.on('data', (chunk: string) => {
    for (const l of chunk.split('\n').filter(Boolean)) {
      lines.push(l);
      if (l === 'ready') readyResolve();
      if (l.startsWith('{')) reportedResolve();
    }
  });
  child.on('exit', () => reportedResolve());
  await ready;
  const hub = server.execution.hub;
  while (hub.subscriberCount(runId) < FOLLOWERS) await new Promise((r) => setTimeout(r, 20));
  const attached = measureMemory ? await memory() : undefined;
  const encodes0 = hub.encoder.encodes;
  const compressions0 = hub.encoder.compressions;
  const reads0 = hub.storeReads;
  const profile = PROFILE ? await startProfile() : undefined;
  const cpu1 = process.cpuUsage();
  const rate = await push(server, followed);
  await reported;
  const cpu = process.cpuUsage(cpu1);
  await profile?.(`${PROFILE}-${mode}-${Date.now()}.cpuprofile`);
  const live = hub.liveStats(runId);
  if (child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  const report = JSON.parse(lines.find((l) => l.startsWith('{')) ?? '{"min":0,"max":0,"bytes":0}');
  // Followers end with the run: finish it so they let go of the hub (its ring and subscriptions).
  await server.database.db.updateTable('runs').set({ status: 'canceled' }).where('id', '=', runId).execute();
  hub.wake(runId);
  return {
    rate,
    cpu,
    report,
    memory: before && attached ? { before, attached } : undefined,
    encodes: hub.encoder.encodes - encodes0,
    compressions: hub.encoder.compressions - compressions0,
    batches: (20 * LINES) / BATCH,
    storeReads: hub.storeReads - reads0,
    liveWrites: live.writes,
    letGo: live.letGo,
    beats: live.beats,
  };
}

const MODES: FollowMode[] = (process.env.BENCH_FOLLOW_MODES ?? 'plain,gzip').split(',') as FollowMode[];

export async function run(): Promise<FollowerResult[]> {
  console.log(
    `SSE followers: ${FOLLOWERS} followers of one run, 20 jobs × ${LINES} lines pushed${YIELD ? ' (yielding between batches)' : ''}, ${ROUNDS} interleaved rounds (${MODES.join(', ')})`,
  );
  return withServer(`sqlite:${tempDir('bench-follow-')}/ci.db`, async (server) => {
    const applied = await server.app.inject({
      method: 'POST',
      url: '/api/v1/projects/apply',
      payload: { yaml: PIPELINE },
    });
    if (applied.statusCode !== 200) throw new Error(`apply failed: ${applied.body}`);
    const { httpPort } = await server.listen();
    // Warm-up: a run nobody follows.
    await push(server, await newJobRuns(server));
    const unfollowed: { rate: number; cpu: NodeJS.CpuUsage }[] = [];
    const followed = new Map<FollowMode, FollowedRound[]>(MODES.map((m) => [m, []]));
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const cpu0 = process.cpuUsage();
      const rate = await push(server, await newJobRuns(server));
      unfollowed.push({ rate, cpu: process.cpuUsage(cpu0) });
      const u = unfollowed[round];
      for (const mode of MODES) {
        const f = await followedRound(server, httpPort, round === 0, mode);
        followed.get(mode)!.push(f);
        loads.push(loadavg()[0]);
        console.log(
          `  round ${round + 1} ${mode}: unfollowed ${cpuMs(u.cpu).toFixed(0)} ms CPU, followed ${cpuMs(f.cpu).toFixed(0)} ms (user ${(f.cpu.user / 1000).toFixed(0)}, system ${(f.cpu.system / 1000).toFixed(0)}): ${(cpuMs(f.cpu) / cpuMs(u.cpu)).toFixed(2)}×; every line ${f.report.min === 20 * LINES && f.report.max === 20 * LINES ? 'yes' : `no (min ${f.report.min}, max ${f.report.max})`}; ${f.encodes} encodings, ${f.compressions} compressions of ${f.batches} batches; ${f.storeReads} store reads; ${f.beats} beats, ${(f.liveWrites / FOLLOWERS).toFixed(1)} live writes and ${(f.letGo / FOLLOWERS).toFixed(1)} let-gos per follower; ${(f.report.bytes / FOLLOWERS / 1024).toFixed(0)} KB per follower`,
        );
      }
    }
    const baseCpu = unfollowed.map((u) => cpuMs(u.cpu));
    const results = MODES.map((mode): FollowerResult => {
      const rounds = followed.get(mode)!;
      const mem = rounds[0].memory!;
      const follCpu = rounds.map((f) => cpuMs(f.cpu));
      const mid = rounds.find((f) => cpuMs(f.cpu) === median(follCpu)) ?? rounds[0];
      const batches = rounds.reduce((n, f) => n + f.batches, 0);
      return {
        mode,
        followers: FOLLOWERS,
        lines: 20 * LINES,
        rounds: ROUNDS,
        rssPerFollowerKb: (mem.attached.rss - mem.before.rss) / 1024 / FOLLOWERS,
        heapPerFollowerKb: (mem.attached.heap - mem.before.heap) / 1024 / FOLLOWERS,
        baseline: median(unfollowed.map((u) => u.rate)),
        target: median(rounds.map((f) => f.rate)),
        ratio: median(rounds.map((f) => f.rate)) / median(unfollowed.map((u) => u.rate)),
        baselineCpuMs: median(baseCpu),
        followedCpuMs: median(follCpu),
        cpuRatio: median(follCpu) / median(baseCpu),
        cpuRatioSpread: spread(follCpu.map((c, i) => c / baseCpu[i])),
        baselineCpuSpread: spread(baseCpu),
        followedCpuSpread: spread(follCpu),
        followedUserMs: mid.cpu.user / 1000,
        followedSystemMs: mid.cpu.system / 1000,
        bytesPerFollower: mid.report.bytes / FOLLOWERS,
        encodesPerBatch: rounds.reduce((n, f) => n + f.encodes, 0) / batches,
        compressionsPerBatch: rounds.reduce((n, f) => n + f.compressions, 0) / batches,
        storeReads: rounds.reduce((n, f) => n + f.storeReads, 0),
        everyLineToEveryFollower: rounds.every(
          (f) => f.report.min === 20 * LINES && f.report.max === 20 * LINES,
        ),
      };
    });
    const range = ([a, b]: [number, number], digits = 0, unit = '') =>
      `${a.toFixed(digits)}–${b.toFixed(digits)}${unit}`;
    for (const r of results) {
      const mem = followed.get(r.mode)![0].memory!;
      console.log(
        `  ${r.mode}: server memory RSS ${mb(mem.before.rss).toFixed(0)} → ${mb(mem.attached.rss).toFixed(0)} MB, heap ${mb(mem.before.heap).toFixed(0)} → ${mb(mem.attached.heap).toFixed(0)} MB`,
      );
    }
    console.log(
      `  load average (1 min) after each followed round: ${range(spread(loads), 1)}; now ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      '\n| encoding | followers | lines | rounds | RSS / heap per follower | ingest unfollowed / followed (median) | server CPU unfollowed (spread) | server CPU followed until delivered (spread) | of which user / system | CPU ratio (spread) | bytes per follower | encodings / compressions per batch | store reads after attaching | every line to every follower |',
    );
    console.log('|---|---:|---:|---:|---|---|---|---|---|---|---:|---:|---:|---|');
    for (const r of results)
      console.log(
        `| ${r.mode} | ${r.followers} | ${r.lines} | ${r.rounds} | ${r.rssPerFollowerKb.toFixed(1)} / ${r.heapPerFollowerKb.toFixed(1)} KB | ${Math.round(r.baseline)} / ${Math.round(r.target)} lines/s (${(r.ratio * 100).toFixed(0)} %) | ${r.baselineCpuMs.toFixed(0)} ms (${range(r.baselineCpuSpread)}) | ${r.followedCpuMs.toFixed(0)} ms (${range(r.followedCpuSpread)}) | ${r.followedUserMs.toFixed(0)} / ${r.followedSystemMs.toFixed(0)} ms | ${r.cpuRatio.toFixed(2)}× (${range(r.cpuRatioSpread, 2, '×')}) | ${(r.bytesPerFollower / 1024 / 1024).toFixed(2)} MB | ${r.encodesPerBatch.toFixed(2)} / ${r.compressionsPerBatch.toFixed(2)} | ${r.storeReads} | ${r.everyLineToEveryFollower ? 'yes' : 'no'} |`,
      );
    return results;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}

// Where a log line's time goes on its way from the agent's print to an SSE client on the other replica, for
// replicas.bench.ts: the bench records what it sees (print, the shipper's send, the acknowledgement, each
// SSE client's receipt and cursor), and both replicas write their stages to a trace file (CI_LOG_TRACE_FILE,
// packages/ci-server/src/replicas/log-trace.ts: PushLogs received, batch committed, NOTIFY sent on A, NOTIFY
// heard on B). Joined per line, the stages add up to the total a follower on B sees:
//   ship   print → the shipper hands its batch over (its linger and waiting for the round in flight)
//   to A   handed over → A's handler has it (the courier's turn, gRPC, A's event loop)
//   store  A's handler → committed (job lookup, the INSERT and its wait for the run's head row)
//   notify committed → A sends NOTIFY (the per-turn coalescing of notifications)
//   hear   A sends NOTIFY → B hears it (PostgreSQL, B's event loop)
//   read   B heard → the client on B has the line (B's store read, SSE encoding and write), from the last
//          notification B heard before the line arrived (B may read a line on the notice of an earlier
//          commit, so the stages are each exact but overlap a little rather than add up exactly); within it
//          B: to read (→ B's store read that brought the line starts), B: query (the read), B: to client
//          (→ the client has it: B's SSE write and the bench's own event loop)
// and beside them: ack (committed → the agent has the acknowledgement), A SSE (committed → client on A).
import { readFileSync } from 'node:fs';
import { quantile } from './dispatch.bench.js';

/** A batch as the bench's shipper wrapper saw it: its job, seq range and when. */
export interface BatchMark {
  job: string;
  first: number;
  last: number;
  at: number;
}

/** What the bench itself recorded in one phase. */
export interface BenchMarks {
  /** Line key (`job#seq`) → print time (epoch ms). */
  printed: Map<string, number>;
  sent: BatchMark[];
  acked: BatchMark[];
  /** Line key → receipt time on the SSE client of A, of B. */
  onA: Map<string, number>;
  onB: Map<string, number>;
  /** Line key → its cursor as the client on B got it. */
  cursorsB?: Map<string, number>;
}

export const STAGES = [
  'ship',
  'to A',
  'store',
  'notify',
  'hear',
  'read on B',
  'B: to read',
  'B: query',
  'B: to client',
  'ack',
  'A SSE',
] as const;
export type Stage = (typeof STAGES)[number];

interface Trace {
  /** PushLogs / PushLogBatches calls: their batch count and first job run. */
  call: { batches: number; job: string }[];
  recv: BatchMark[];
  commit: BatchMark[];
  /** Per run: the times of its INSERT statements. */
  insert: Map<string, number[]>;
  notify: Map<string, number[]>;
  heard: Map<string, number[]>;
  /** Store reads for followers (logs/hub.ts): start, and the answer (the lines after `after` up to `last`). */
  read: { run: string; after: number; at: number }[];
  page: { run: string; after: number; last: number; at: number }[];
}

function readTrace(path: string): Trace {
  const t: Trace = {
    call: [],
    recv: [],
    commit: [],
    insert: new Map(),
    notify: new Map(),
    heard: new Map(),
    read: [],
    page: [],
  };
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return t;
  }
  for (const line of text.split('\n')) {
    const [stage, at, a, b, c] = line.split(' ');
    if (stage === 'call') t.call.push({ batches: Number(a), job: b });
    else if (stage === 'read') t.read.push({ run: a, after: Number(b), at: Number(at) });
    else if (stage === 'page') t.page.push({ run: a, after: Number(b), last: Number(c), at: Number(at) });
    else if (stage === 'recv' || stage === 'commit')
      t[stage].push({ job: a, first: Number(b), last: Number(c), at: Number(at) });
    else if (stage === 'notify' || stage === 'heard' || stage === 'insert') {
      const list = t[stage].get(a) ?? [];
      list.push(Number(at));
      t[stage].set(a, list);
    }
  }
  return t;
}

/** Last time at or before `t` in the sorted list (undefined when none). */
function lastBefore(sorted: number[] | undefined, t: number | undefined): number | undefined {
  if (!sorted || t === undefined) return undefined;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? sorted[lo - 1] : undefined;
}

/** First time at or after `t` in the sorted list (undefined when none). */
function firstAfter(sorted: number[] | undefined, t: number): number | undefined {
  if (!sorted) return undefined;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}

/** Per line key, the earliest mark of a batch holding it (a resent line counts from its first send). */
function byLine(marks: BatchMark[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of marks)
    for (let seq = m.first; seq <= m.last; seq++) {
      const key = `${m.job}#${seq}`;
      const known = out.get(key);
      if (known === undefined || m.at < known) out.set(key, m.at);
    }
  return out;
}

/**
 * Each stage's latencies (ms) over the lines of run `runId`, from the bench's marks and the two replicas'
 * trace files (which may hold other phases' events: only this run's jobs and notifications count).
 */
export function stageLatencies(
  marks: BenchMarks,
  runId: string,
  traceA: string,
  traceB: string,
): Record<Stage, number[]> {
  const a = readTrace(traceA);
  const b = readTrace(traceB);
  const sent = byLine(marks.sent);
  const acked = byLine(marks.acked);
  const recv = byLine(a.recv);
  const commit = byLine(a.commit);
  const notify = a.notify.get(runId)?.sort((x, y) => x - y);
  const heard = b.heard.get(runId)?.sort((x, y) => x - y);
  // B's reads of this run, each page with the start of its read; a line's read is the first page holding it.
  const pages = b.page.filter((p) => p.run === runId).sort((x, y) => x.at - y.at);
  const reads = b.read.filter((r) => r.run === runId);
  const readOf = (cursor: number) => {
    const page = pages.find((p) => p.after < cursor && cursor <= p.last);
    if (!page) return undefined;
    let start: number | undefined;
    for (const r of reads)
      if (r.after === page.after && r.at <= page.at && (start === undefined || r.at > start)) start = r.at;
    return start === undefined ? undefined : { start, end: page.at };
  };
  const out = Object.fromEntries(STAGES.map((s) => [s, [] as number[]])) as Record<Stage, number[]>;
  const add = (stage: Stage, from: number | undefined, to: number | undefined) => {
    if (from !== undefined && to !== undefined) out[stage].push(to - from);
  };
  for (const [key, printed] of marks.printed) {
    const s = sent.get(key);
    const r = recv.get(key);
    const c = commit.get(key);
    const n = c === undefined ? undefined : firstAfter(notify, c);
    const h = n === undefined ? undefined : firstAfter(heard, n);
    add('ship', printed, s);
    add('to A', s, r);
    add('store', r, c);
    add('notify', c, n);
    add('hear', n, h);
    // B may have read the line on an earlier notification (one sent for a commit before it, read after
    // it): its read counts from the last notification B heard before the line reached its client.
    const onB = marks.onB.get(key);
    add('read on B', lastBefore(heard, onB), onB);
    // Within it: until B's store read that brought the line began, the read, and from its answer to the
    // client (B's SSE write and the bench's own event loop).
    const cursor = marks.cursorsB?.get(key);
    const read = cursor === undefined ? undefined : readOf(cursor);
    if (read && onB !== undefined) {
      add('B: to read', lastBefore(heard, read.start), read.start);
      add('B: query', read.start, read.end);
      add('B: to client', read.end, onB);
    }
    add('ack', c, acked.get(key));
    add('A SSE', c, marks.onA.get(key));
  }
  return out;
}

/**
 * What replica A did for run `runId`: calls received (PushLogs or PushLogBatches), batches in them, INSERT
 * statements, NOTIFYs sent.
 */
export function replicaCounts(
  marks: Pick<BenchMarks, 'sent'>,
  runId: string,
  traceA: string,
): { calls: number; batches: number; inserts: number; notifies: number } {
  const a = readTrace(traceA);
  const jobs = new Set(marks.sent.map((m) => m.job));
  return {
    calls: a.call.filter((c) => jobs.has(c.job)).length,
    batches: a.recv.filter((r) => jobs.has(r.job)).length,
    inserts: a.insert.get(runId)?.length ?? 0,
    notifies: a.notify.get(runId)?.length ?? 0,
  };
}

/** One line of p50/p99 per stage, for the round's log. */
export function describeStages(stages: Record<Stage, number[]>): string {
  return STAGES.map(
    (s) => `${s} ${quantile(stages[s], 0.5).toFixed(1)}/${quantile(stages[s], 0.99).toFixed(1)}`,
  ).join(', ');
}

/** CPU time (user + system, ms) a process used so far, from /proc (Linux); NaN elsewhere. */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

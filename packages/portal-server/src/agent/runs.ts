// Agent runs held in this process: each run's state, its numbered progress events (kept so a browser that
// reconnects with Last-Event-ID misses nothing), live subscribers, the results of its statements (artifacts,
// by correlation id) and its answer statement. Runs are owned by the person who opened them; finished runs
// are forgotten after a while and the registry is bounded, so memory stays flat.
import type { ReadResult } from './execution-adapter.js';
import type { Workflow } from './workflows.js';

export type RunStatus = 'running' | 'paused' | 'completed' | 'failed';

export interface RunEvent {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

export interface Artifact extends ReadResult {
  correlationId: string;
}

/** One model message as the runner keeps it between drives (AI SDK ModelMessage). */
export type StoredMessage = Record<string, unknown>;

export interface AgentRun {
  id: string;
  owner: { role: 'admin' | 'user'; username: string };
  threadId: string;
  datasourceId: string;
  engine: string;
  workflow: Workflow;
  objective: string;
  status: RunStatus;
  /** Typed reason of a failed run (agent_run_deadline_exceeded, …). */
  reason?: string;
  deadlineMs: number;
  deadlineAt: number;
  createdAt: number;
  endedAt?: number;
  answer?: string;
  /** The last statement that ran successfully: what handover replays. */
  answerStatement?: string;
  artifacts: Map<string, Artifact>;
  events: RunEvent[];
  messages: StoredMessage[];
  listeners: Set<(e: RunEvent) => void>;
  /** Stops the run's model call and running statement. */
  abort?: (reason: string) => void;
}

/** Events one run keeps (a run is at most a few dozen steps; text deltas are coalesced per step). */
export const RUN_MAX_EVENTS = 2000;
/** Runs kept in memory; the oldest finished ones go first. */
export const MAX_RUNS = 200;
/** How long a finished run (its events and artifacts) stays readable. */
export const RUN_RETENTION_MS = 30 * 60_000;

export class RunRegistry {
  private readonly runs = new Map<string, AgentRun>();

  constructor(private readonly now: () => number = Date.now) {}

  add(run: AgentRun): void {
    this.sweep();
    this.runs.set(run.id, run);
  }

  /** The run when `owner` opened it; another person's run is reported as absent (existence not revealed). */
  get(id: string, owner?: string): AgentRun | undefined {
    const run = this.runs.get(id);
    if (!run || (owner !== undefined && run.owner.username !== owner)) return undefined;
    return run;
  }

  /** Earlier runs of a thread by the same person, oldest first. */
  thread(threadId: string, owner: string, except: string): AgentRun[] {
    return [...this.runs.values()]
      .filter((r) => r.threadId === threadId && r.owner.username === owner && r.id !== except)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  all(): AgentRun[] {
    return [...this.runs.values()];
  }

  /** Runs of this person still running. */
  running(owner: string): AgentRun[] {
    return [...this.runs.values()].filter((r) => r.owner.username === owner && r.status === 'running');
  }

  /** Appends a progress event and hands it to every live subscriber. */
  emit(run: AgentRun, event: string, data: Record<string, unknown>): RunEvent {
    const e: RunEvent = { id: (run.events.at(-1)?.id ?? 0) + 1, event, data };
    run.events.push(e);
    // The first event (`run`, the run's description) is kept; the oldest after it go first.
    if (run.events.length > RUN_MAX_EVENTS) run.events.splice(1, run.events.length - RUN_MAX_EVENTS);
    for (const l of run.listeners) l(e);
    return e;
  }

  /** Forgets runs that ended long ago, then the oldest ended ones while over the bound. */
  private sweep(): void {
    const now = this.now();
    for (const [id, r] of this.runs) {
      if (r.endedAt !== undefined && now - r.endedAt > RUN_RETENTION_MS && r.listeners.size === 0)
        this.runs.delete(id);
    }
    if (this.runs.size < MAX_RUNS) return;
    const ended = [...this.runs.values()]
      .filter((r) => r.status !== 'running')
      .sort((a, b) => a.createdAt - b.createdAt);
    for (const r of ended) {
      if (this.runs.size < MAX_RUNS) break;
      this.runs.delete(r.id);
    }
  }
}

/** Thread context: earlier objectives and answers of the thread, newest kept, at most `max` characters. */
export function threadContext(previous: AgentRun[], max: number): string {
  const parts = previous
    .filter((r) => r.answer)
    .map((r) => `Earlier objective: ${r.objective}\nEarlier answer: ${r.answer}`);
  let text = parts.join('\n\n');
  if (text.length > max) text = text.slice(text.length - max);
  return text;
}

// Which notification events a run transition raises (pure). A run raises `run.started` when it first
// becomes running, `run.succeeded` / `run.failed` / `run.canceled` when it ends, `run.fixed` when it
// succeeds and the pipeline's previous finished run had failed, and `gate.waiting` for each job that starts
// waiting on a manual gate.
export const NOTIFICATION_EVENTS = [
  'run.started',
  'run.succeeded',
  'run.failed',
  'run.canceled',
  'run.fixed',
  'gate.waiting',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export interface TransitionFacts {
  previousStatus: string | null;
  status: string;
  /** Status of the pipeline's previous finished run (by counter), when this one just succeeded. */
  previousFinishedStatus?: string | null;
  /** Jobs that began waiting on a gate in this transition. */
  gateJobs: { id: string; name: string }[];
}

export interface RaisedEvent {
  event: NotificationEvent;
  job?: { id: string; name: string };
}

const TERMINAL: Record<string, NotificationEvent> = {
  success: 'run.succeeded',
  failed: 'run.failed',
  canceled: 'run.canceled',
};

export function raisedEvents(f: TransitionFacts): RaisedEvent[] {
  const out: RaisedEvent[] = [];
  const changed = f.previousStatus !== f.status;
  const wasStartedOrDone = f.previousStatus === 'running' || (f.previousStatus ?? '') in TERMINAL;
  if (changed && f.status === 'running' && !wasStartedOrDone) out.push({ event: 'run.started' });
  if (changed && f.status in TERMINAL && !((f.previousStatus ?? '') in TERMINAL)) {
    out.push({ event: TERMINAL[f.status] });
    if (f.status === 'success' && f.previousFinishedStatus === 'failed') out.push({ event: 'run.fixed' });
  }
  for (const job of f.gateJobs) out.push({ event: 'gate.waiting', job });
  return out;
}

/** Whether `raisedEvents` could raise anything, before the previous run is looked up. */
export function mayRaise(previousStatus: string | null, status: string, gateJobs: number): boolean {
  return gateJobs > 0 || previousStatus !== status;
}

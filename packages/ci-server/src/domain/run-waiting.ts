/**
 * Why an unfinished run is not doing anything (the run JSON's `waiting`): it waits for its turn in a serial
 * concurrency group, for a maintainer to approve a fork's pull request, or at a manual gate. A run with a job
 * queued for an agent or running is not waiting (queued-for-an-agent is plain `queued`). Pure: the store
 * gathers the facts.
 */
export type WaitReason = 'concurrency' | 'fork_approval' | 'approval';

export interface RunWaiting {
  reason: WaitReason;
  /** One sentence for people. */
  message: string;
  /** concurrency: the run it waits for. */
  run_id: string | null;
  /** approval: the gate (the first one, in stage order). */
  job: string | null;
}

export interface WaitFacts {
  status: string;
  /** The run a serial run waits for, with its counter and pipeline (null when not held back). */
  waitingFor: { id: string; counter: number; pipelineName: string; samePipeline: boolean } | null;
  forkAwaitingApproval: boolean;
  /** Jobs of the run in an active status (queued, running, awaiting_approval), gates marked. */
  activeJobs: { name: string; status: string; isGate: boolean }[];
}

export function runWaiting(f: WaitFacts): RunWaiting | null {
  if (f.status !== 'queued' && f.status !== 'running') return null;
  if (f.waitingFor && f.status === 'queued') {
    const w = f.waitingFor;
    const which = w.samePipeline ? `run #${w.counter}` : `run #${w.counter} of pipeline "${w.pipelineName}"`;
    return {
      reason: 'concurrency',
      message: `waits for ${which} to finish (concurrency: serial)`,
      run_id: w.id,
      job: null,
    };
  }
  if (f.forkAwaitingApproval)
    return {
      reason: 'fork_approval',
      message: 'waits for a maintainer to approve this pull request from a fork',
      run_id: null,
      job: null,
    };
  const busy = f.activeJobs.some((j) => j.status === 'queued' || j.status === 'running');
  const gate = f.activeJobs.find((j) => j.isGate && j.status === 'awaiting_approval');
  if (!busy && gate)
    return {
      reason: 'approval',
      message: `waits for approval at gate "${gate.name}"`,
      run_id: null,
      job: gate.name,
    };
  return null;
}

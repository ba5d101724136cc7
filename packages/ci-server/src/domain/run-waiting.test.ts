// runWaiting: which reason an unfinished run shows, as a table.
import { describe, expect, it } from 'vitest';
import { runWaiting, type WaitFacts } from './run-waiting.js';

const base: WaitFacts = { status: 'running', waitingFor: null, forkAwaitingApproval: false, activeJobs: [] };
const gate = { name: 'ship', status: 'awaiting_approval', isGate: true };
const build = (status: string) => ({ name: 'build', status, isGate: false });
const holder = { id: 'r1', counter: 7, pipelineName: 'deploy', samePipeline: true };

describe('runWaiting', () => {
  const cases: [string, Partial<WaitFacts>, string | null, string | null][] = [
    ['finished runs never wait', { status: 'success', activeJobs: [gate] }, null, null],
    ['a run with a job for an agent is busy', { activeJobs: [gate, build('queued')] }, null, null],
    ['only a gate left: approval', { activeJobs: [gate] }, 'approval', 'waits for approval at gate "ship"'],
    [
      'serial: waits for the run before it',
      { status: 'queued', waitingFor: holder },
      'concurrency',
      'waits for run #7 to finish (concurrency: serial)',
    ],
    [
      'serial across pipelines names the pipeline',
      { status: 'queued', waitingFor: { ...holder, samePipeline: false } },
      'concurrency',
      'waits for run #7 of pipeline "deploy" to finish (concurrency: serial)',
    ],
    [
      'a fork run held for a maintainer',
      { status: 'queued', forkAwaitingApproval: true, activeJobs: [{ ...build('awaiting_approval') }] },
      'fork_approval',
      'waits for a maintainer to approve this pull request from a fork',
    ],
    [
      'a started run keeps no stale concurrency reason',
      { status: 'running', waitingFor: holder },
      null,
      null,
    ],
    ['queued for an agent is not waiting', { status: 'queued', activeJobs: [build('queued')] }, null, null],
  ];
  it.each(cases)('%s', (_name, facts, reason, message) => {
    const got = runWaiting({ ...base, ...facts });
    expect(got?.reason ?? null).toBe(reason);
    expect(got?.message ?? null).toBe(message);
  });
});

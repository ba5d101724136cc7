// Table-driven rules of which events a run transition raises.
import { describe, expect, it } from 'vitest';
import { raisedEvents } from './notification-events.js';

const gate = { id: 'j1', name: 'deploy-approval' };

describe('raisedEvents', () => {
  it.each([
    ['queued → running', { previousStatus: 'queued', status: 'running', gateJobs: [] }, ['run.started']],
    ['running → running', { previousStatus: 'running', status: 'running', gateJobs: [] }, []],
    ['running → success', { previousStatus: 'running', status: 'success', gateJobs: [] }, ['run.succeeded']],
    [
      'success after a failure',
      { previousStatus: 'running', status: 'success', previousFinishedStatus: 'failed', gateJobs: [] },
      ['run.succeeded', 'run.fixed'],
    ],
    [
      'success after a success',
      { previousStatus: 'running', status: 'success', previousFinishedStatus: 'success', gateJobs: [] },
      ['run.succeeded'],
    ],
    ['running → failed', { previousStatus: 'running', status: 'failed', gateJobs: [] }, ['run.failed']],
    ['queued → canceled', { previousStatus: 'queued', status: 'canceled', gateJobs: [] }, ['run.canceled']],
    ['failed → failed', { previousStatus: 'failed', status: 'failed', gateJobs: [] }, []],
    [
      'a gate starts waiting',
      { previousStatus: 'running', status: 'running', gateJobs: [gate] },
      ['gate.waiting'],
    ],
  ])('%s', (_name, facts, expected) => {
    expect(raisedEvents(facts).map((e) => e.event)).toEqual(expected);
  });

  it('names the gate job', () => {
    expect(raisedEvents({ previousStatus: 'queued', status: 'queued', gateJobs: [gate] })).toEqual([
      { event: 'gate.waiting', job: gate },
    ]);
  });
});

// The registry's running-jobs count (src/dispatch/agent-registry.ts) is kept incrementally by each agent's
// lease set instead of summed over every agent on each report: after every step of a long fixed sequence of
// leases, releases, re-registrations, removals and direct changes to an agent's set, it equals the sum
// recomputed over the registered agents.
import { describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../src/dispatch/agent-registry.js';

const recount = (registry: AgentRegistry) => registry.list().reduce((n, a) => n + a.leased.size, 0);

/** A fixed pseudo-random sequence (same every run: no test depends on chance). */
function* steps(seed: number, n: number) {
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield x;
  }
}

describe('agent registry running-jobs count', () => {
  it('equals the recount over the registered agents after every change', () => {
    const registry = new AgentRegistry();
    const info = (i: number) => ({
      id: `agent-${i}`,
      name: `a${i}`,
      tags: [],
      capacity: 4,
      version: 'test',
      hostname: 'h',
    });
    let job = 0;
    let checked = 0;
    for (const x of steps(7, 3_000)) {
      const agent = registry.get(`agent-${x % 6}`);
      switch ((x >> 8) % 7) {
        case 0: // (re-)register, keeping some leases across the new session
          registry.register(info(x % 6), agent ? [...agent.leased].slice(0, 2) : [`job-${job++}`]);
          break;
        case 1:
        case 2:
          if (agent) registry.lease(agent, `job-${job++}`);
          break;
        case 3: {
          const held = agent && [...agent.leased][0];
          if (held) registry.release(held);
          break;
        }
        case 4:
          if (agent && (x >> 12) % 4 === 0) registry.remove(agent.id);
          break;
        case 5: // a lease of the same job twice counts once
          if (agent && agent.leased.size > 0) registry.lease(agent, [...agent.leased][0]);
          break;
        case 6: // direct changes to the set (as some callers and tests make) keep the count too
          if (agent && (x >> 12) % 2 === 0) agent.leased.clear();
          else if (agent) agent.leased.delete(`job-${job - 1}`);
          break;
      }
      expect(registry.runningJobs()).toBe(recount(registry));
      checked++;
    }
    expect(checked).toBe(3_000);
    expect(recount(registry)).toBeGreaterThan(0);
  });

  it('a replaced or removed agent no longer counts, even if its old set is changed later', () => {
    const registry = new AgentRegistry();
    const info = { id: 'a', name: 'a', tags: [], capacity: 4, version: 't', hostname: 'h' };
    const first = registry.register(info, ['j1', 'j2']);
    expect(registry.runningJobs()).toBe(2);
    const second = registry.register(info, ['j1']);
    expect(registry.runningJobs()).toBe(1);
    first.leased.add('j9');
    first.leased.clear();
    expect(registry.runningJobs()).toBe(1);
    registry.remove(second.id);
    expect(registry.runningJobs()).toBe(0);
    second.leased.add('j3');
    expect(registry.runningJobs()).toBe(0);
  });
});

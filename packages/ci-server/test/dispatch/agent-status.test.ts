// Agent status rows (src/agents/agent-status.ts): a change is written at once when the agent's last write is
// a second old; changes inside that second are deferred and the deferred changes of all agents go as one
// UPDATE per status value; a status that came back to what was written costs nothing; `force` writes at
// once. Statements are counted at Kysely; time is the test's own clock, so nothing depends on timing.
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { AgentStatusWriter } from '../../src/agents/agent-status.js';
import type { AgentPort, ConnectedAgent } from '../../src/dispatch/agent-registry.js';
import { upsertAgent } from '../../src/store/agent-leases.js';
import type { StoreDb } from '../../src/store/database.js';
import { cleanupsAfterEach, databaseUrl, STORES, startServer } from './helpers.js';

const cleanups = cleanupsAfterEach();

const open: AgentPort = {
  sendAssignment: () => true,
  sendCancel: () => true,
  close: () => undefined,
  closed: false,
};

describe.each(STORES)('agent status rows on %s', (kind) => {
  it('writes deferred changes of several agents as one statement per status', async () => {
    const s = await startServer(await databaseUrl(kind));
    cleanups.push(() => s.server.close());
    const statements: string[] = [];
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        if (args.node.kind === 'UpdateQueryNode') statements.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const db = (s.server.database.db as StoreDb).withPlugin(counting) as StoreDb;
    const agents: ConnectedAgent[] = [];
    for (const name of ['a', 'b', 'c']) {
      const id = await upsertAgent(db, { name, tags: [], capacity: 1, version: '', hostname: '' });
      agents.push({
        id,
        sessionId: name,
        name,
        tags: [],
        engines: ['host'],
        capacity: 1,
        version: '',
        hostname: '',
        registeredAt: new Date(),
        lastSeenAt: new Date(),
        runningJobIds: [],
        leased: new Set(),
        draining: false,
        outbound: open,
        lastAssigned: 0,
      });
    }
    let now = 10_000;
    const registry = {
      list: () => agents,
      runningJobs: () => agents.reduce((n, a) => n + a.leased.size, 0),
    } as never;
    const writer = new AgentStatusWriter(
      { db, registry, data: { metrics: { setJobsRunning: () => undefined } } as never },
      () => now,
    );
    const rows = async () =>
      Object.fromEntries(
        (await db.selectFrom('agents').select(['name', 'status']).orderBy('name').execute()).map((r) => [
          r.name,
          r.status,
        ]),
      );
    statements.length = 0;

    for (const a of agents) await writer.sync(a);
    expect(statements).toHaveLength(3);
    expect(await rows()).toEqual({ a: 'online', b: 'online', c: 'online' });

    // Inside the second: all three turn busy, nothing is written yet.
    now += 100;
    for (const a of agents) {
      a.leased.add(`job-${a.name}`);
      await writer.sync(a);
    }
    now += 400;
    await writer.writeDeferred();
    expect(statements).toHaveLength(3);

    // The second passed; c came back to online meanwhile (what was written): a and b in one statement.
    now += 600;
    agents[2].leased.clear();
    await writer.writeDeferred();
    expect(statements).toHaveLength(4);
    expect(await rows()).toEqual({ a: 'busy', b: 'busy', c: 'online' });

    // Forced (a stream opening) is written at once, inside the second or not.
    agents[0].leased.clear();
    await writer.sync(agents[0], true);
    expect(statements).toHaveLength(5);
    expect((await rows()).a).toBe('online');
  });
});

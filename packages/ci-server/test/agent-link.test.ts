import { AgentConnection, loadAgentSettings } from '@app/ci-agent';
import { waitFor } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { startTestCiServer } from './helpers.js';

describe('agent registration over gRPC', () => {
  it('registers with the right token and is refused with a wrong one', async () => {
    const server = await startTestCiServer();
    const { grpcPort } = await server.listen();
    const settings = (token: string, name: string) =>
      loadAgentSettings({
        CI_SERVER: `127.0.0.1:${grpcPort}`,
        CI_AGENT_TOKEN: token,
        CI_AGENT_NAME: name,
        CI_AGENT_TAGS: 'linux, x64',
      });
    const acks: string[] = [];
    const good = new AgentConnection(settings('test-agent-token', 'good'), {
      onServerMessage: (m) => acks.push(m.kind.case ?? ''),
    });
    const rejections: string[] = [];
    const bad = new AgentConnection(settings('wrong', 'bad'), {
      onRejected: ({ reason }) => rejections.push(reason),
    });
    const runs = [good.run(), bad.run()];
    try {
      await waitFor(async () => server.agents.list().length === 1 && rejections.length > 0, {
        what: 'registration',
      });
      const [agent] = server.agents.list();
      expect(agent.name).toBe('good');
      expect(agent.tags).toEqual(['linux', 'x64']);
      expect(rejections[0]).toMatch(/invalid agent registration token/);
      // The session stream is up: the first heartbeat is answered over it.
      await waitFor(async () => acks.includes('heartbeatAck'), { what: 'heartbeat ack' });
      expect(server.agents.list()[0].outbound).toBeDefined();
    } finally {
      good.stop();
      bad.stop();
      await Promise.all(runs);
      await server.close();
    }
  });

  it('reports an unreachable server and keeps retrying with backoff', async () => {
    const attempts: number[] = [];
    const conn = new AgentConnection(loadAgentSettings({ CI_SERVER: '127.0.0.1:1', CI_AGENT_TOKEN: 't' }), {
      onUnreachable: ({ attempt }) => attempts.push(attempt),
    });
    const run = conn.run();
    await waitFor(async () => attempts.length >= 2, { what: 'two retries', timeoutMs: 10_000 });
    conn.stop();
    await run;
    expect(attempts.slice(0, 2)).toEqual([1, 2]);
  });
});

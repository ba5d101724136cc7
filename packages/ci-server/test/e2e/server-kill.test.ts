// Fault test with real processes (issue 12): the control plane process is killed with SIGKILL mid-run, on
// SQLite and on PostgreSQL, and started again on the same data and ports. The agent reconnects, the run
// finishes on its first attempt, and every line the job printed is stored exactly once.
import { freePort, waitFor } from '@app/kit';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { AGENT_TOKEN, api, startAgent } from './harness.js';
import { killServerProcesses, startServerProcess } from './server-process.js';

const LINES = 60;
afterAll(killServerProcesses);

describe.each(['sqlite', 'postgres'])('control plane SIGKILLed mid-run on %s', (store) => {
  it('the agent reconnects and the run finishes with every line once', async () => {
    const dataDir = tempDir('kill-ci-');
    const httpPort = await freePort();
    const grpcPort = await freePort();
    const env = {
      CI_DATA_DIR: dataDir,
      CI_HTTP_PORT: String(httpPort),
      CI_GRPC_PORT: String(grpcPort),
      CI_AGENT_TOKEN: AGENT_TOKEN,
      CI_SECRET_KEY: '2'.repeat(64),
      CI_AUTH_ENABLED: 'false',
      ...(store === 'postgres'
        ? { CI_DATABASE_URL: await createPostgresDatabase(inject('services').postgresUrl, 'ci_kill') }
        : {}),
    };
    let server = startServerProcess(env);
    const base = server.base;
    await server.ready();
    const agent = startAgent(grpcPort, `kill-${store}`);
    try {
      const client = api(base);
      const ids = await client.apply(`kill-${store}`, [
        `name: slow
stages: [work]
jobs:
  print:
    stage: work
    script:
      - 'for i in $(seq 1 ${LINES}); do echo "line $i"; sleep 0.15; done'`,
      ]);
      const runId = await client.trigger(ids.slow);
      await waitFor(
        async () => (await client.run(runId)).stages[0].jobs[0].logs.some((l: any) => l.text === 'line 10'),
        { what: 'the job to be printing', timeoutMs: 60_000 },
      );
      await server.kill9();
      server = startServerProcess(env);
      await server.ready();
      const run = await client.waitRun(runId, undefined, 120_000);
      expect(run.status).toBe('success');
      const jobs = client.jobs(run);
      expect(jobs).toHaveLength(1);
      const printed = jobs[0].logs.map((l: any) => l.text).filter((t: string) => t.startsWith('line '));
      expect(printed).toEqual(Array.from({ length: LINES }, (_, i) => `line ${i + 1}`));
      console.log(
        `[figures] server SIGKILL on ${store}: run success on attempt 1, lines lost 0, duplicated 0`,
      );
    } finally {
      await agent.stop();
      await server.stop();
    }
  }, 180_000);
});

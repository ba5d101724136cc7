// Live logs across replicas on one PostgreSQL: lines stored through replica A reach an SSE follower on replica
// B because A's NOTIFY wakes it, not because B polls the store. B's follower poll period is ten minutes, far
// longer than the test may take, so only the notification can deliver the lines in time; the store read
// (SQLite's only path, one server) is covered by logs.test.ts. No timing is asserted.
import { waitFor } from '@app/kit';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CiServer, createCiServer, loadCiSettings } from '../../src/index.js';
import { applyAndGetPipelines, client } from '../api-helpers.js';
import { lines, PIPELINE, parseSse } from './fixture.js';

const LONG = 60_000;

async function replica(url: string, logPollMs?: number): Promise<{ server: CiServer; base: string }> {
  const settings = loadCiSettings({
    CI_DATA_DIR: tempDir('ci-notify-'),
    CI_DATABASE_URL: url,
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: 'test-agent-token',
    CI_SECRET_KEY: '0'.repeat(64),
    CI_AUTH_ENABLED: 'false',
  });
  const server = await createCiServer(settings, { logger: false, logPollMs });
  const { httpPort } = await server.listen();
  return { server, base: `http://127.0.0.1:${httpPort}` };
}

let a: Awaited<ReturnType<typeof replica>>;
let b: Awaited<ReturnType<typeof replica>>;

beforeAll(async () => {
  const url = await createPostgresDatabase(inject('services').postgresUrl, 'ci_log_notify');
  a = await replica(url);
  // Ten minutes: beyond the test's own bound, so a line that arrives came by notification.
  b = await replica(url, 600_000);
  await waitFor(async () => Boolean(a.server.replicas?.listening && b.server.replicas?.listening), {
    what: 'both listeners',
    timeoutMs: LONG,
  });
}, LONG);

afterAll(async () => {
  await b?.server.close();
  await a?.server.close();
});

/** Reads B's SSE stream of a run until `count` log events arrived; their texts. */
async function readOnB(runId: string, count: number, opened: () => void): Promise<string[]> {
  const controller = new AbortController();
  const res = await fetch(`${b.base}/api/v1/runs/${runId}/logs/stream`, { signal: controller.signal });
  expect(res.status).toBe(200);
  opened();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of res.body!) {
      text += decoder.decode(chunk, { stream: true });
      const events = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)).filter((e) => e.event === 'log');
      if (events.length >= count) return events.map((e) => e.data.text as string);
    }
    throw new Error('the stream ended early');
  } finally {
    controller.abort();
  }
}

describe('live logs across replicas', () => {
  it('a follower on B gets lines stored through A by notification, without waiting for its poll', async () => {
    const api = client(a.server);
    const pipelines = await applyAndGetPipelines(api, 'notify', [PIPELINE]);
    const trigger = await api.post(`/api/v1/pipelines/${pipelines.build}/trigger`);
    expect(trigger.status).toBe(201);
    const runId = trigger.body.run_id as string;
    const compile = (
      await a.server.database.db
        .selectFrom('job_runs')
        .select('id')
        .where('run_id', '=', runId)
        .where('name', '=', 'compile')
        .executeTakeFirstOrThrow()
    ).id;
    const heardBefore = b.server.replicas!.stats.received;
    let opened!: () => void;
    const open = new Promise<void>((r) => {
      opened = r;
    });
    const reading = readOnB(runId, 5, opened);
    await open;
    // B's follower has replayed the (empty) store and waits: subscribed on B's hub before anything is stored.
    await waitFor(async () => b.server.execution.hub.subscriberCount(runId) > 0, {
      what: "B's follower",
      timeoutMs: LONG,
    });
    await a.server.execution.logs.appendLogBatch(compile, lines(2));
    // A second batch after the first was announced: each wakes B's follower on its own.
    await waitFor(async () => b.server.replicas!.stats.received > heardBefore, {
      what: 'the notification on B',
      timeoutMs: LONG,
    });
    await a.server.execution.logs.appendLogBatch(compile, lines(3, 3));
    expect(await reading).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
  }, 120_000);

  it('lines of two runs stored in one turn: one INSERT, one NOTIFY statement, and B hears both runs', async () => {
    const api = client(a.server);
    const pipelines = await applyAndGetPipelines(api, 'notify-two', [PIPELINE]);
    const compileOf = async () => {
      const trigger = await api.post(`/api/v1/pipelines/${pipelines.build}/trigger`);
      expect(trigger.status).toBe(201);
      const runId = trigger.body.run_id as string;
      const job = await a.server.database.db
        .selectFrom('job_runs')
        .select('id')
        .where('run_id', '=', runId)
        .where('name', '=', 'compile')
        .executeTakeFirstOrThrow();
      return { runId, job: job.id };
    };
    const x = await compileOf();
    const y = await compileOf();
    const logs = a.server.execution.logs;
    const signals = a.server.replicas!;
    // Which runs B hears of (B's replica signals wake its hub's followers of each).
    const heard = new Set<string>();
    const hub = b.server.execution.hub;
    const original = hub.storedElsewhere.bind(hub);
    hub.storedElsewhere = (runId?: string) => {
      if (runId) heard.add(runId);
      original(runId);
    };
    // Each job's first batch reads its state from the store; the next ones go straight to the insert.
    await Promise.all([logs.appendLogBatch(x.job, lines(1)), logs.appendLogBatch(y.job, lines(1))]);
    await waitFor(async () => heard.has(x.runId) && heard.has(y.runId), {
      what: 'first notices',
      timeoutMs: LONG,
    });
    heard.clear();
    const inserts = logs.inserts.stats.statements;
    const rounds = signals.stats.logRounds;
    await Promise.all([logs.appendLogBatch(x.job, lines(2, 2)), logs.appendLogBatch(y.job, lines(2, 2))]);
    expect(logs.inserts.stats.statements - inserts).toBe(1);
    await waitFor(async () => heard.has(x.runId) && heard.has(y.runId), {
      what: 'both runs on B',
      timeoutMs: LONG,
    });
    expect(signals.stats.logRounds - rounds).toBe(1);
    hub.storedElsewhere = original;
  }, 120_000);
});

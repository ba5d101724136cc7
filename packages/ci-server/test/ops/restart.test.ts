// Surviving a crash, with real processes: a control plane (`node --import tsx src/main.ts`) is killed with
// SIGKILL while a notification is pending (its receiver was down) and while a log archive is half done (the
// blob written, its row not yet committed — the state a crash between the two steps leaves). A new process
// on the same data directory delivers the notification once the receiver is up (same idempotency key) and
// finishes the archive, after which the API still answers the job's log with the same cursors.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort, openDatabase, waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle } from '../api-helpers.js';
import { killServerProcesses, startServerProcess } from '../e2e/server-process.js';
import { startHttpReceiver } from './receivers.js';

afterAll(killServerProcesses);

async function api(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

const PIPELINE = `name: build
stages: [build]
jobs:
  compile:
    stage: build
    script: [make]
`;

describe('a control plane killed mid-work', () => {
  it('keeps the pending notification and finishes the interrupted archive after a restart', async () => {
    const dataDir = tempDir('ci-restart-proc-');
    const receiverPort = await freePort();
    const config = join(dataDir, 'ci.yaml');
    writeFileSync(
      config,
      [
        'notifications:',
        '  signing_secret: restart-secret',
        // Long enough that the retry after the failed first attempt is not yet claimed when the process is
        // killed: a kill during a claim leaves the row held for the 60 s claim (the test waited for that).
        '  backoff: 10s',
        'retention:',
        '  archive_interval: 2s',
      ].join('\n'),
    );
    const env = async () => {
      const httpPort = await freePort();
      return {
        base: `http://127.0.0.1:${httpPort}`,
        env: {
          CI_DATA_DIR: dataDir,
          CI_HTTP_PORT: String(httpPort),
          CI_GRPC_PORT: String(await freePort()),
          CI_AUTH_ENABLED: 'false',
          CI_AGENT_TOKEN: 'restart-agent-token',
          CI_SECRET_KEY: '1'.repeat(64),
          CI_CONFIG: config,
          LOG_LEVEL: 'warn',
        },
      };
    };
    const ready = (base: string) =>
      waitFor(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.ok, {
        timeoutMs: 60_000,
        what: 'control plane health',
      });

    // First life: a canceled run raises run.canceled while the receiver is down.
    const first = await env();
    const p1 = startServerProcess(first.env);
    await ready(first.base);
    const applied = await api(first.base, 'POST', '/api/v1/projects/apply', {
      yaml: bundle('shop', [PIPELINE]),
    });
    expect(applied.status, JSON.stringify(applied.body)).toBeLessThan(300);
    const project = await api(first.base, 'GET', '/api/v1/projects/shop');
    const pipelineId = project.body.pipelines[0].id;
    const hook = `http://127.0.0.1:${receiverPort}/hook`;
    expect(
      (
        await api(first.base, 'PUT', '/api/v1/projects/shop/notifications', {
          channels: [{ kind: 'webhook', target: hook, events: ['run.canceled'] }],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api(first.base, 'PUT', '/api/v1/projects/shop/log-archive', {
          override: { enabled: true, after: '0s' },
        })
      ).status,
    ).toBe(200);
    const run = await api(first.base, 'POST', `/api/v1/pipelines/${pipelineId}/trigger`);
    const runId = run.body.run_id;
    expect((await api(first.base, 'POST', `/api/v1/runs/${runId}/cancel`)).status).toBe(202);
    const history = async (base: string) =>
      (await api(base, 'GET', '/api/v1/projects/shop/notifications/deliveries')).body.deliveries;
    // The first attempt fails (nothing listens): the row stays pending for a retry. Its error is the sign the
    // failure was recorded (while the attempt is in flight the row is already pending with attempts 1).
    const pending = await waitFor(
      async () => {
        const d = await history(first.base);
        return d.length === 1 && d[0].attempts >= 1 && d[0].status === 'pending' && d[0].last_error
          ? d[0]
          : undefined;
      },
      { timeoutMs: 30_000, what: 'a failed first attempt' },
    );
    await p1.kill9();

    // The crash left an archive half done: the job's rows are still there and its blob was written.
    const database = openDatabase(`sqlite:${join(dataDir, 'ci.db')}`);
    const db = database.db as any;
    const job = await db
      .selectFrom('job_runs')
      .select('id')
      .where('run_id', '=', runId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('log_lines')
      .values(
        [1, 2, 3].map((seq) => ({
          job_run_id: job.id,
          seq,
          stream: 'stdout',
          at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
          text: `line ${seq}`,
          run_id: runId,
          run_seq: seq,
        })),
      )
      .execute();
    await db.insertInto('run_log_heads').values({ run_id: runId, last_seq: 3 }).execute();
    await database.close();
    const blob = join(dataDir, 'logs', runId, `${job.id}.jsonl.gz`);
    mkdirSync(dirname(blob), { recursive: true });
    writeFileSync(blob, 'a blob whose row was never committed');

    // Second life: the receiver is up now.
    const receiver = await startHttpReceiver(receiverPort);
    try {
      const second = await env();
      startServerProcess(second.env);
      await ready(second.base);
      const got = await waitFor(async () => receiver.requests.find((r) => r.path === '/hook'), {
        timeoutMs: 60_000,
        what: 'the redelivered notification',
      });
      expect(got.headers['x-ci-event']).toBe('run.canceled');
      expect(got.headers['idempotency-key']).toBe(pending.idempotency_key);
      await waitFor(async () => (await history(second.base))[0]?.status === 'delivered', {
        timeoutMs: 30_000,
        what: 'delivered status',
      });

      await waitFor(
        async () => {
          const totals = (await api(second.base, 'GET', '/api/v1/admin/retention')).body.totals;
          return totals.log_lines === 0 && totals.log_archives === 1;
        },
        { timeoutMs: 60_000, what: 'the finished archive' },
      );
      const detail = await api(second.base, 'GET', `/api/v1/runs/${runId}?logs=10`);
      const logs = detail.body.stages[0].jobs[0].logs;
      expect(logs.map((l: { text: string }) => l.text)).toEqual(['line 1', 'line 2', 'line 3']);
      const sse = await fetch(`${second.base}/api/v1/runs/${runId}/logs/stream`, {
        headers: { 'last-event-id': '1' },
      });
      const text = await sse.text();
      expect([...text.matchAll(/^event: log\nid: (\d+)$/gm)].map((m) => m[1])).toEqual(['2', '3']);
      expect(text).toMatch(/event: end\nid: 3\ndata: \{"status":"canceled"\}\n\n$/);
    } finally {
      await receiver.close();
    }
  }, 240_000);
});

// Helpers of the trigger tests: a control plane with a controllable trigger clock, signed webhook requests,
// fixtures of the hosts' payloads, runs as stored, and an agent stand-in that drives jobs to their end
// through the state machine and publishes the effects the way the real job transitions do.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { inject } from 'vitest';
import { type JobResult, onJobFinished } from '../../src/domain/index.js';
import type { CiServer } from '../../src/index.js';
import { loadRun, persistRun } from '../../src/store/run-snapshot.js';
import type { StoreKind } from '../api-helpers.js';
import { dbOf } from '../core/agent-sim.js';
import { startTestCiServer } from '../helpers.js';

export class FakeClock {
  constructor(public ms: number) {}
  now = (): Date => new Date(this.ms);
  set(iso: string): void {
    this.ms = Date.parse(iso);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export async function storeUrl(kind: StoreKind): Promise<string> {
  return kind === 'sqlite'
    ? `sqlite:${tempDir('ci-trig-')}/ci.db`
    : createPostgresDatabase(inject('services').postgresUrl, 'ci_trig');
}

/** A control plane with authentication off (the open authorizer acts as admin) and a fake trigger clock. */
export async function startTriggerServer(
  url: string,
  clock: FakeClock,
  env: Record<string, string> = {},
  tickMs = 50,
): Promise<CiServer> {
  const { createCiServer, loadCiSettings } = await import('../../src/index.js');
  const settings = loadCiSettings({
    CI_DATA_DIR: tempDir('ci-data-'),
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: 'test-agent-token',
    CI_SECRET_KEY: '0'.repeat(64),
    CI_DATABASE_URL: url,
    CI_AUTH_ENABLED: 'false',
    ...env,
  });
  return createCiServer(settings, { logger: false, triggers: { now: clock.now, tickMs, leaseTtlMs: 5000 } });
}

export { startTestCiServer };

const FIXTURES = join(import.meta.dirname, 'fixtures');

/** A recorded payload, optionally with string replacements (repository URLs, commit ids). */
export function fixture(name: string, replace: Record<string, string> = {}): string {
  let text = readFileSync(join(FIXTURES, name), 'utf8');
  for (const [from, to] of Object.entries(replace)) text = text.split(from).join(to);
  return text;
}

export function hubSignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

let deliveries = 0;
export function deliveryId(): string {
  deliveries++;
  return `72d3162e-cc78-11e3-81ab-${String(deliveries).padStart(12, '0')}`;
}

export interface Delivery {
  status: number;
  body: { runs?: string[]; error?: string };
}

/** Posts a webhook body with the host's headers; `secret` signs it (null: no signature header). */
export async function sendWebhook(
  server: CiServer,
  host: 'github' | 'gitlab' | 'bitbucket',
  event: string,
  body: string,
  secret: string | null,
  extra: Record<string, string> = {},
): Promise<Delivery> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (host === 'github') {
    headers['x-github-event'] = event;
    headers['x-github-delivery'] = deliveryId();
    headers['user-agent'] = 'GitHub-Hookshot/044aadd';
    if (secret !== null) headers['x-hub-signature-256'] = hubSignature(secret, body);
  } else if (host === 'gitlab') {
    headers['x-gitlab-event'] = event;
    headers['x-gitlab-event-uuid'] = deliveryId();
    headers['user-agent'] = 'GitLab/17.0.0';
    if (secret !== null) headers['x-gitlab-token'] = secret;
  } else {
    headers['x-event-key'] = event;
    headers['x-request-uuid'] = deliveryId();
    headers['x-hook-uuid'] = '4c7f5f8a-0000-4000-8000-000000000001';
    headers['user-agent'] = 'Bitbucket-Webhooks/2.0';
    if (secret !== null) headers['x-hub-signature'] = hubSignature(secret, body);
  }
  Object.assign(headers, extra);
  const res = await server.app.inject({
    method: 'POST',
    url: `/api/webhooks/${host}`,
    payload: body,
    headers,
  });
  return { status: res.statusCode, body: res.json() };
}

export async function runsOf(server: CiServer, where: { cause?: string } = {}) {
  let q = dbOf(server)
    .selectFrom('runs as r')
    .innerJoin('pipelines as p', 'p.id', 'r.pipeline_id')
    .select([
      'r.id',
      'p.name as pipeline',
      'r.cause',
      'r.git_ref',
      'r.revision',
      'r.counter',
      'r.triggered_by',
    ]);
  if (where.cause) q = q.where('r.cause', '=', where.cause);
  return q.orderBy('r.created_at').orderBy('r.id').execute();
}

/** Starts every queued job of the run, then finishes each with `result` (or its result by job name). */
export async function driveRun(
  server: CiServer,
  runId: string,
  result: JobResult | ((job: string) => JobResult) = 'success',
): Promise<void> {
  const postgres = server.database.dialect === 'postgres';
  for (let guard = 0; guard < 50; guard++) {
    const changed = await dbOf(server)
      .transaction()
      .execute(async (trx) => {
        const loaded = (await loadRun(trx, runId, postgres))!;
        const job = loaded.snapshot.stages.flatMap((s) => s.jobs).find((j) => j.status === 'queued');
        if (!job) return null;
        const running = structuredClone(loaded.snapshot);
        const row = running.stages.flatMap((s) => s.jobs).find((j) => j.id === job.id)!;
        row.status = 'running';
        await persistRun(trx, loaded, running);
        const reloaded = (await loadRun(trx, runId, postgres))!;
        const t = onJobFinished(
          reloaded.snapshot,
          job.id,
          typeof result === 'function' ? result(job.name) : result,
        );
        if (!t.ok) throw new Error(t.message);
        await persistRun(trx, reloaded, t.run);
        return t.effects;
      });
    if (changed === null) return;
    server.events.publish({ runId, effects: changed });
    await server.triggers.idle();
  }
  throw new Error(`run ${runId} did not finish`);
}

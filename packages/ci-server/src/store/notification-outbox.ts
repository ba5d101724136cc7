// The notification outbox, written inside the transaction of the run transition that raises the events
// (store/run-snapshot.ts persistRun, services/run-create.ts): one `notification_outbox` row per event and
// channel that wants it, with an idempotency key that makes a repeated write a no-op and that receivers use
// to drop a repeated delivery. The deliverer (notifications/) sends the rows after the commit, so a rolled
// back transition notifies nobody and a committed one is never lost.
import { createHash } from 'node:crypto';
import { mayRaise, type NotificationEvent, raisedEvents } from '../domain/notification-events.js';
import type { StoreDb } from './database.js';
import { newId, nowIso } from './ids.js';
import type { NotificationOutboxTable } from './operations-schema.js';

interface Channel {
  kind: string;
  target: string;
  events: string[];
}

export interface RunFacts {
  id: string;
  project_id: string;
  pipeline_id: string;
  counter: number;
  cause: string;
  git_ref: string | null;
  revision: string | null;
  started_at?: string | null;
  finished_at?: string | null;
}

/**
 * Writes the outbox rows a transition raises. Cheap when nothing can be raised (no status change, no gate)
 * and when the project has no channels (one indexed read).
 */
export async function enqueueRunNotifications(
  trx: StoreDb,
  run: RunFacts,
  previousStatus: string | null,
  status: string,
  gateJobs: { id: string; name: string }[],
): Promise<void> {
  if (!mayRaise(previousStatus, status, gateJobs.length)) return;
  const setting = await trx
    .selectFrom('project_settings')
    .select('value')
    .where('project_id', '=', run.project_id)
    .where('key', '=', 'notifications')
    .executeTakeFirst();
  if (!setting) return;
  let channels: Channel[] = [];
  try {
    channels = (JSON.parse(setting.value) as { channels: Channel[] }).channels ?? [];
  } catch {
    return;
  }
  if (channels.length === 0) return;
  let previousFinishedStatus: string | null = null;
  if (status === 'success' && previousStatus !== 'success') {
    const prev = await trx
      .selectFrom('runs')
      .select('status')
      .where('pipeline_id', '=', run.pipeline_id)
      .where('counter', '<', run.counter)
      .where('status', 'in', ['success', 'failed'])
      .orderBy('counter', 'desc')
      .limit(1)
      .executeTakeFirst();
    previousFinishedStatus = prev?.status ?? null;
  }
  const events = raisedEvents({ previousStatus, status, previousFinishedStatus, gateJobs });
  if (events.length === 0) return;
  const names = await trx
    .selectFrom('projects')
    .innerJoin('pipelines', 'pipelines.project_id', 'projects.id')
    .select(['projects.slug', 'projects.name as project_name', 'pipelines.name as pipeline_name'])
    .where('pipelines.id', '=', run.pipeline_id)
    .executeTakeFirst();
  const now = nowIso();
  const rows: NotificationOutboxTable[] = [];
  for (const raised of events) {
    const payload = JSON.stringify({
      event: raised.event,
      at: now,
      project: { slug: names?.slug ?? null, name: names?.project_name ?? null },
      pipeline: { id: run.pipeline_id, name: names?.pipeline_name ?? null },
      run: {
        id: run.id,
        counter: run.counter,
        status,
        cause: run.cause,
        git_ref: run.git_ref,
        revision: run.revision,
      },
      ...(raised.job ? { job: raised.job } : {}),
    });
    for (const [index, channel] of channels.entries()) {
      if (!channel.events.includes(raised.event)) continue;
      rows.push({
        id: newId(),
        project_id: run.project_id,
        run_id: run.id,
        event: raised.event,
        channel_kind: channel.kind,
        target: channel.target,
        payload,
        idempotency_key: idempotencyKey(run.id, raised.event, raised.job?.id, index, channel.target),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        response_status: null,
        created_at: now,
        delivered_at: null,
      });
    }
  }
  if (rows.length === 0) return;
  await trx
    .insertInto('notification_outbox')
    .values(rows)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
}

function idempotencyKey(
  runId: string,
  event: NotificationEvent,
  jobId: string | undefined,
  channel: number,
  target: string,
): string {
  const t = createHash('sha256').update(target).digest('hex').slice(0, 16);
  return `${runId}:${event}:${jobId ?? '-'}:${channel}:${t}`;
}

/** The project's delivery history, newest first, filtered by status and event. */
export async function listDeliveries(
  db: StoreDb,
  projectId: string,
  filter: { status?: NotificationOutboxTable['status']; event?: string },
  page: { limit: number; offset: number },
): Promise<{ rows: NotificationOutboxTable[]; total: number }> {
  let q = db.selectFrom('notification_outbox').where('project_id', '=', projectId);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.event) q = q.where('event', '=', filter.event);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(page.limit).offset(page.offset).execute(),
    q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

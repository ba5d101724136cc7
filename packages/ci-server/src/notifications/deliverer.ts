// The outbox deliverer: every replica polls `notification_outbox` for due rows, claims each with a
// conditional UPDATE (push its next attempt a lease ahead, only if no one else did), sends it
// (channels.ts) and records the outcome: delivered, retried after an exponential backoff, or failed after
// the last attempt. A process that stops mid-send leaves the row pending with its lease, so another replica
// or the restarted process sends it again: delivery is at least once, and the idempotency key lets
// receivers drop the repeat.
import { FORGE_STATUS_KIND } from '../domain/forge-status.js';
import type { StoreDb } from '../store/database.js';
import type { ForgeStatusPayload } from '../store/forge-status-outbox.js';
import { nowIso } from '../store/ids.js';
import type { KnownSecrets } from '../store/known-secrets.js';
import type { NotificationOutboxTable } from '../store/operations-schema.js';
import { ChannelSender, type Payload } from './channels.js';
import type { ForgeStatusSender } from './forge-status/sender.js';
import { backoffAfter, type NotificationSettings } from './settings.js';

export interface DelivererDeps {
  db: StoreDb;
  settings: NotificationSettings;
  /** Base of the run links in messages (CI_PUBLIC_URL). */
  publicUrl: string;
  /** Poll period (default 2 s). */
  pollMs?: number;
  /** How long a claimed row is held before another replica may retry it (default 60 s). */
  claimMs?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Every stored secret: masked in the payload sent and in the error kept (a run's ref, a receiver's echo). */
  secrets?: KnownSecrets;
  /** Commit statuses to GitHub, GitLab and Bitbucket (rows of kind `commit_status`). */
  forge?: ForgeStatusSender;
}

const BATCH = 20;

export class NotificationDeliverer {
  private readonly db: StoreDb;
  private readonly sender: ChannelSender;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private pass: Promise<number> | undefined;

  constructor(private readonly deps: DelivererDeps) {
    this.db = deps.db;
    this.sender = new ChannelSender(deps.settings);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.pass = this.deliverDue()
        .catch((err) => {
          this.deps.log?.error({ err }, 'notification delivery pass failed');
          return 0;
        })
        .finally(() => {
          this.pass = undefined;
          if (this.running) this.schedule(this.deps.pollMs ?? 2_000);
        });
    }, ms);
    this.timer.unref();
  }

  /** Sends every due row (in batches); answers how many were attempted. */
  async deliverDue(): Promise<number> {
    let attempted = 0;
    for (;;) {
      const now = nowIso();
      const due = await this.db
        .selectFrom('notification_outbox')
        .selectAll()
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .limit(BATCH)
        .execute();
      if (due.length === 0) return attempted;
      await Promise.all(due.map((row) => this.attempt(row)));
      attempted += due.length;
      if (due.length < BATCH || !this.running) return attempted;
    }
  }

  private async attempt(row: NotificationOutboxTable): Promise<void> {
    const forge = row.channel_kind === FORGE_STATUS_KIND ? this.deps.forge : undefined;
    // A later status of the same run replaces this one on the forge: it is not sent.
    if (forge && (await forge.supersede(row))) return;
    const claimUntil = new Date(Date.now() + (this.deps.claimMs ?? 60_000)).toISOString();
    const attempt = row.attempts + 1;
    const claimed = await this.db
      .updateTable('notification_outbox')
      .set({ next_attempt_at: claimUntil, attempts: attempt })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .where('attempts', '=', row.attempts)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    const stored = JSON.parse(row.payload) as Payload;
    const payload = this.deps.secrets ? await this.deps.secrets.maskValue(stored) : stored;
    payload.run.url = `${this.deps.publicUrl}/runs/${payload.run.id}`;
    const sending = forge
      ? forge.send(row, payload as unknown as ForgeStatusPayload)
      : this.sender.send(row, payload, attempt);
    const sent = await sending.catch((err: Error) => ({
      outcome: 'retry' as const,
      error: err.message,
      status: undefined,
    }));
    const result =
      sent.outcome !== 'delivered' && this.deps.secrets
        ? { ...sent, error: await this.deps.secrets.maskText(sent.error) }
        : sent;
    if (result.outcome === 'delivered') {
      await this.db
        .updateTable('notification_outbox')
        .set({
          status: 'delivered',
          delivered_at: nowIso(),
          last_error: null,
          response_status: result.status ?? null,
        })
        .where('id', '=', row.id)
        .execute();
      return;
    }
    const final = result.outcome === 'failed' || attempt >= this.deps.settings.maxAttempts;
    await this.db
      .updateTable('notification_outbox')
      .set({
        status: final ? 'failed' : 'pending',
        next_attempt_at: final
          ? claimUntil
          : new Date(Date.now() + backoffAfter(this.deps.settings, attempt)).toISOString(),
        last_error: result.error.slice(0, 2000),
        response_status: result.status ?? null,
      })
      .where('id', '=', row.id)
      .execute();
    this.deps.log?.warn(
      { delivery: row.id, event: row.event, channel: row.channel_kind, attempt, final, error: result.error },
      final ? 'notification failed for good' : 'notification will be retried',
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.pass;
    this.sender.close();
  }
}

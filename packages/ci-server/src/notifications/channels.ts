// Sending one outbox row over its channel. Webhook: the payload as JSON, signed like the portal's callbacks
// (`X-CI-Signature: v1=<hex HMAC-SHA256 of '<timestamp>.<body>'>` with `X-CI-Timestamp`), plus `X-CI-Event`,
// `X-CI-Delivery: <id>:<attempt>` and `Idempotency-Key`. Chat: a Slack-style incoming webhook body
// (`{text}` with a readable line and a link to the run). Email: a plain-text message through SMTP
// (nodemailer). Each answers delivered, retry (network failure, timeout, 408/429/5xx) or failed for good.
import { hmacSha256Hex } from '@app/kit';
import nodemailer, { type Transporter } from 'nodemailer';
import type { NotificationOutboxTable } from '../store/operations-schema.js';
import type { NotificationSettings } from './settings.js';

export type SendResult =
  | { outcome: 'delivered'; status?: number }
  | { outcome: 'retry' | 'failed'; status?: number; error: string };

export interface Payload {
  event: string;
  project: { slug: string | null; name: string | null };
  pipeline: { id: string; name: string | null };
  run: { id: string; counter: number; status: string; git_ref: string | null; url?: string };
  job?: { id: string; name: string };
}

const TIMEOUT_MS = 10_000;

const SUMMARY: Record<string, (p: Payload) => string> = {
  'run.started': () => 'started',
  'run.succeeded': () => 'succeeded',
  'run.failed': () => 'failed',
  'run.canceled': () => 'was canceled',
  'run.fixed': () => 'is fixed: it succeeded after a failure',
  'gate.waiting': (p) => `waits for approval of ${p.job?.name ?? 'a gate'}`,
};

/** One readable line: `shop/build #12 failed (main)`. */
export function describe(p: Payload): string {
  const what = SUMMARY[p.event]?.(p) ?? p.event;
  const ref = p.run.git_ref ? ` (${p.run.git_ref})` : '';
  return `${p.project.slug ?? 'project'}/${p.pipeline.name ?? 'pipeline'} #${p.run.counter} ${what}${ref}`;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'ci-control-plane', ...headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
  } catch (err) {
    return { outcome: 'retry', error: `request failed: ${(err as Error).message}` };
  }
  if (res.status >= 200 && res.status < 300) return { outcome: 'delivered', status: res.status };
  const retry = res.status >= 500 || res.status === 408 || res.status === 429;
  return {
    outcome: retry ? 'retry' : 'failed',
    status: res.status,
    error: `receiver answered ${res.status}`,
  };
}

export class ChannelSender {
  private mailer: Transporter | undefined;

  constructor(private readonly settings: NotificationSettings) {}

  async send(row: NotificationOutboxTable, payload: Payload, attempt: number): Promise<SendResult> {
    if (row.channel_kind === 'webhook') return this.webhook(row, payload, attempt);
    if (row.channel_kind === 'chat') return this.chat(row, payload);
    if (row.channel_kind === 'email') return this.email(row, payload);
    return { outcome: 'failed', error: `unknown channel kind ${row.channel_kind}` };
  }

  private async webhook(
    row: NotificationOutboxTable,
    payload: Payload,
    attempt: number,
  ): Promise<SendResult> {
    // Without a signing secret the body goes unsigned (no X-CI-Signature), as GitHub, GitLab and Buildkite
    // deliver a webhook that has no secret; the notification settings say so when they are saved or read.
    const secret = this.settings.signingSecret;
    const body = JSON.stringify({ ...payload, idempotency_key: row.idempotency_key });
    const timestamp = String(Math.floor(Date.now() / 1000));
    return post(row.target, body, {
      'x-ci-event': row.event,
      'x-ci-delivery': `${row.id}:${attempt}`,
      'idempotency-key': row.idempotency_key,
      'x-ci-timestamp': timestamp,
      ...(secret ? { 'x-ci-signature': `v1=${hmacSha256Hex(secret, `${timestamp}.${body}`)}` } : {}),
    });
  }

  private async chat(row: NotificationOutboxTable, payload: Payload): Promise<SendResult> {
    const line = describe(payload);
    const text = payload.run.url ? `${line} — <${payload.run.url}|open run>` : line;
    if (row.target.startsWith('#') || row.target.startsWith('@')) {
      if (!this.settings.chatWebhookUrl)
        return {
          outcome: 'failed',
          error: 'a #channel target needs CI_CONFIG notifications.chat_webhook_url',
        };
      return post(this.settings.chatWebhookUrl, JSON.stringify({ channel: row.target, text }), {});
    }
    return post(row.target, JSON.stringify({ text }), {});
  }

  private async email(row: NotificationOutboxTable, payload: Payload): Promise<SendResult> {
    const smtp = this.settings.smtp;
    if (!smtp) return { outcome: 'failed', error: 'email needs CI_CONFIG notifications.smtp' };
    this.mailer ??= nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });
    const line = describe(payload);
    try {
      await this.mailer.sendMail({
        from: smtp.from,
        to: row.target,
        subject: `[CI] ${line}`,
        text: `${line}\n\n${payload.run.url ? `Run: ${payload.run.url}\n` : ''}Event: ${row.event}\n`,
        headers: { 'X-CI-Event': row.event, 'X-CI-Idempotency-Key': row.idempotency_key },
        messageId: `<${row.idempotency_key.replace(/[^\w.-]/g, '.')}@ci-control-plane>`,
      });
      return { outcome: 'delivered' };
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      // 5xx SMTP replies are permanent (bad address); anything else is worth another try.
      return {
        outcome: code !== undefined && code >= 500 ? 'failed' : 'retry',
        error: `SMTP: ${(err as Error).message}`,
      };
    }
  }

  close(): void {
    this.mailer?.close();
  }
}

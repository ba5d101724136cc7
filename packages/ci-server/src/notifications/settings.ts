// Notification delivery settings from CI_CONFIG `notifications` (environment wins for the secret):
// `signing_secret` (or CI_NOTIFICATION_SECRET) signs webhook bodies; `chat_webhook_url` is where `#channel`
// chat targets are posted (an incoming webhook that accepts a `channel` field); `smtp` is the mail server
// of email targets; `max_attempts` and `backoff` shape the retries.
import { parseDuration } from '../domain/index.js';

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

export interface NotificationSettings {
  signingSecret?: string;
  chatWebhookUrl?: string;
  smtp?: SmtpSettings;
  maxAttempts: number;
  /** First retry delay; each later one doubles, capped at `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  maxAttempts: 8,
  backoffMs: 5_000,
  maxBackoffMs: 3_600_000,
};

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export function readNotificationSettings(
  file: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  log: { warn(obj: object, msg: string): void },
): NotificationSettings {
  const raw = (
    file.notifications && typeof file.notifications === 'object' ? file.notifications : {}
  ) as Record<string, unknown>;
  const out: NotificationSettings = { ...DEFAULT_NOTIFICATION_SETTINGS };
  out.signingSecret = str(env.CI_NOTIFICATION_SECRET) ?? str(raw.signing_secret);
  out.chatWebhookUrl = str(raw.chat_webhook_url);
  if (raw.max_attempts !== undefined) {
    if (Number.isSafeInteger(raw.max_attempts) && (raw.max_attempts as number) >= 1)
      out.maxAttempts = raw.max_attempts as number;
    else log.warn({ key: 'notifications.max_attempts' }, 'CI_CONFIG value is not a positive integer; 8 used');
  }
  if (raw.backoff !== undefined) {
    const ms = typeof raw.backoff === 'string' ? parseDuration(raw.backoff) : null;
    if (ms !== null && ms >= 1) out.backoffMs = ms;
    else log.warn({ key: 'notifications.backoff' }, 'CI_CONFIG value is not a duration; 5s used');
  }
  const smtp = raw.smtp as Record<string, unknown> | undefined;
  if (smtp && typeof smtp === 'object') {
    const host = str(smtp.host);
    const from = str(smtp.from);
    const port = Number(smtp.port ?? 587);
    if (!host || !from || !Number.isInteger(port) || port < 1 || port > 65535)
      log.warn(
        { key: 'notifications.smtp' },
        'CI_CONFIG smtp needs host, from and a valid port; email is off',
      );
    else
      out.smtp = {
        host,
        port,
        secure: smtp.secure === true,
        user: str(smtp.user),
        password: str(env.CI_SMTP_PASSWORD) ?? str(smtp.password),
        from,
      };
  }
  return out;
}

/** Delay before attempt `attempts + 1` (attempts already made ≥ 1): exponential, capped. */
export function backoffAfter(settings: NotificationSettings, attempts: number): number {
  return Math.min(settings.maxBackoffMs, settings.backoffMs * 2 ** Math.max(0, attempts - 1));
}

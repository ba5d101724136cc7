/**
 * Cron expressions of `cron` materials and project cron schedules.
 *
 * Accepted: classic 5-field expressions (minute hour day-of-month month day-of-week, with the usual
 * lists, ranges, steps and names) and the nicknames @hourly @daily @weekly @monthly @yearly @annually.
 * A 6-field (seconds) form is rejected: schedules are minute-grained. Croner does the field parsing. Times
 * are computed in UTC unless a timezone is given.
 */
import { Cron } from 'croner';

export const CRON_NICKNAMES = ['@hourly', '@daily', '@weekly', '@monthly', '@yearly', '@annually'] as const;

/** null when `expression` is valid, else a message a person can act on. */
export function validateCron(expression: string): string | null {
  const expr = expression.trim();
  if (expr.startsWith('@')) {
    if ((CRON_NICKNAMES as readonly string[]).includes(expr.toLowerCase())) return null;
    return `unknown cron nickname "${expr}"; use one of ${CRON_NICKNAMES.join(', ')}`;
  }
  const fields = expr.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) {
    return `cron expression "${expr}" has ${fields.length} fields; expected 5 (minute hour day-of-month month day-of-week)`;
  }
  try {
    new Cron(fields.join(' '), { paused: true, timezone: 'UTC' });
    return null;
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^CronPattern: /, '') : String(err);
    return `invalid cron expression "${expr}": ${detail}`;
  }
}

/** The next `count` fire times strictly after `after` (UTC unless `timezone`); [] for invalid expressions. */
export function nextCronRuns(expression: string, after: Date, count = 1, timezone = 'UTC'): Date[] {
  if (validateCron(expression) !== null) return [];
  const expr = expression.trim().replace(/\s+/g, ' ');
  const cron = new Cron(expr.startsWith('@') ? expr.toLowerCase() : expr, { paused: true, timezone });
  return cron.nextRuns(count, after);
}

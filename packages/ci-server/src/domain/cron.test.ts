// Cron validation (5 fields or nicknames) and next fire times.
import { describe, expect, it } from 'vitest';
import { nextCronRuns, validateCron } from './cron.js';

describe('validateCron', () => {
  it.each([
    '0 3 * * *',
    '*/5 * * * *',
    '0 0 1,15 * MON-FRI',
    '30 2 * jan sun',
    '  0 3 * * *  ',
    '@hourly',
    '@daily',
    '@weekly',
    '@monthly',
    '@yearly',
    '@annually',
    '@DAILY',
  ])('%j is valid', (expr) => {
    expect(validateCron(expr)).toBeNull();
  });

  it.each([
    ['', /0 fields/],
    ['* * * *', /4 fields; expected 5/],
    ['0 0 3 * * *', /6 fields; expected 5/],
    ['61 * * * *', /minute/],
    ['0 25 * * *', /hour/],
    ['0 0 32 * *', /day/],
    ['0 0 * 13 *', /month/],
    ['0 0 * * funday', /invalid cron expression/],
    ['@midnight', /unknown cron nickname/],
    ['@reboot', /unknown cron nickname/],
  ])('%j is rejected', (expr, message) => {
    expect(validateCron(expr)).toMatch(message);
  });
});

describe('nextCronRuns', () => {
  const after = new Date('2026-01-01T10:15:00Z');
  it.each([
    ['0 3 * * *', ['2026-01-02T03:00:00.000Z', '2026-01-03T03:00:00.000Z']],
    ['@hourly', ['2026-01-01T11:00:00.000Z', '2026-01-01T12:00:00.000Z']],
    ['*/20 * * * *', ['2026-01-01T10:20:00.000Z', '2026-01-01T10:40:00.000Z']],
  ])('%s fires next at %j (UTC)', (expr, expected) => {
    expect(nextCronRuns(expr, after, 2).map((d) => d.toISOString())).toEqual(expected);
  });

  it('honours a timezone', () => {
    const [next] = nextCronRuns('0 3 * * *', after, 1, 'Europe/Berlin');
    expect(next.toISOString()).toBe('2026-01-02T02:00:00.000Z');
  });

  it('gives nothing for an invalid expression', () => {
    expect(nextCronRuns('nope', after, 3)).toEqual([]);
  });
});

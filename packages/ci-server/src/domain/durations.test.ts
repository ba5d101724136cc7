// Duration grammar: parse and canonical format.
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './durations.js';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['72h', 259_200_000],
    ['7d', 604_800_000],
    ['1h30m', 5_400_000],
    ['1d2h3m4s5ms', 93_784_005],
    ['250ms', 250],
    ['0s', 0],
    [' 90m ', 5_400_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['', 'empty'],
    ['30', 'no unit'],
    ['1.5h', 'fraction'],
    ['30m1h', 'units out of order'],
    ['1h1h', 'unit repeated'],
    ['-5m', 'negative'],
    ['5 m', 'space inside'],
    ['5w', 'unknown unit'],
    ['m', 'no number'],
    ['99999999999999999999d', 'too large'],
  ])('%j is rejected (%s)', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [30_000, '30s'],
    [5_400_000, '1h30m'],
    [604_800_000, '7d'],
    [93_784_005, '1d2h3m4s5ms'],
    [1_500, '1s500ms'],
  ])('%d ms is %s and parses back', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([[-1], [1.5], [Number.NaN]])('rejects %d', (ms) => {
    expect(() => formatDuration(ms)).toThrow(RangeError);
  });
});

/**
 * Durations as written in pipeline YAML (`30s`, `5m`, `72h`, `7d`, `1h30m`, `1s500ms`).
 *
 * A duration is one or more `<integer><unit>` parts with units `d`, `h`, `m`, `s`, `ms`, each unit at most
 * once and in that (descending) order. A bare number has no unit and is rejected, so `timeout: 30` is an
 * error rather than a guess. Values are carried as integer milliseconds everywhere else in the domain.
 */

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
type Unit = keyof typeof UNIT_MS;
const ORDER: readonly Unit[] = ['d', 'h', 'm', 's', 'ms'];
const PART = /(\d+)(ms|d|h|m|s)/y;

/** Milliseconds of `text`, or null when it is not a duration (see the file header for the grammar). */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (s === '') return null;
  PART.lastIndex = 0;
  let total = 0;
  let lastRank = -1;
  while (PART.lastIndex < s.length) {
    const at = PART.lastIndex;
    const m = PART.exec(s);
    if (!m || m.index !== at) return null;
    const rank = ORDER.indexOf(m[2] as Unit);
    if (rank <= lastRank) return null;
    lastRank = rank;
    total += Number(m[1]) * UNIT_MS[m[2] as Unit];
  }
  return Number.isSafeInteger(total) ? total : null;
}

/** Canonical text of a millisecond count: `90 * 60_000` → `1h30m`, `0` → `0s`. */
export function formatDuration(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`not a duration in milliseconds: ${ms}`);
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const unit of ORDER) {
    const n = Math.floor(rest / UNIT_MS[unit]);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * UNIT_MS[unit];
    }
  }
  return out;
}

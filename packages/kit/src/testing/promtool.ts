// `promtool check metrics` (Prometheus's own linter of the text exposition format) run on a scrape. promtool
// is installed with the test prerequisites (Debian package `prometheus`, scripts/prerequisites.mjs); a
// missing promtool is an error, never a skipped check.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/promtool', '/usr/local/bin/promtool', '/bin/promtool'];

export interface PromtoolResult {
  /** promtool's exit status: 0 clean, 3 lint problems, 1 a parse error. */
  status: number;
  /** What promtool printed (its problems, one a line). */
  output: string;
}

export function promtoolCheckMetrics(exposition: string): PromtoolResult {
  const bin = CANDIDATES.find((p) => existsSync(p));
  if (!bin)
    throw new Error(
      'promtool is not installed: run `node scripts/test.mjs` as root or `apt-get install prometheus`',
    );
  const res = spawnSync(bin, ['check', 'metrics'], { input: exposition, encoding: 'utf8', timeout: 60_000 });
  if (res.error) throw res.error;
  return { status: res.status ?? -1, output: `${res.stdout}${res.stderr}`.trim() };
}

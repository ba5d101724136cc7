// How a pipeline material reads in one line (the project page's pipelines table and its Triggers tab).
import type { Material } from '../api/types';

export function materialText(m: Material): string {
  if (m.git) return `git ${m.git.url}${m.git.branch ? ` @ ${m.git.branch}` : ''}`;
  if (m.upstream) return `after ${m.upstream.pipeline}${m.upstream.stage ? `/${m.upstream.stage}` : ''}`;
  if (m.cron) return `cron ${m.cron.expression}`;
  return m.kind;
}

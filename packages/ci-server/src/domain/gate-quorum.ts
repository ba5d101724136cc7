/**
 * gocdnext's `approval.quorum_by_label`: the labels of the pull request a run builds change how many
 * approvals its gate needs. Read and checked here at apply (label names lowercased, 1..100 approvals, at
 * most 16 labels), and resolved when the run is planned: among the run's labels that the map names, the
 * largest override wins (ties: the label first in alphabetical order); a run that builds no pull request,
 * or whose pull request carries none of them, needs `required`. The quorum is fixed when the run is created:
 * relabelling a pull request changes the next run's gates, not this one's.
 */
import type { ApprovalSpec } from './bundle-types.js';
import type { TriggerFacts } from './when-filter.js';
import type { Entry, Reader } from './yaml-reader.js';

/** gocdnext's label charset (lowercase letters, digits, `.`, `_`, `-`, `/`). */
export const QUORUM_LABEL = /^[a-z0-9][a-z0-9._/-]*$/;
export const QUORUM_LABELS_MAX = 16;

/** `quorum_by_label: {label: n}`, keys lowercased; null when it is not a mapping. */
export function readQuorumByLabel(r: Reader, e: Entry): Record<string, number> | null {
  const entries = r.entries(e.node, e.path, 'pull-request labels to numbers of approvals');
  if (!entries) return null;
  if (entries.length > QUORUM_LABELS_MAX)
    r.fail(e.node, e.path, `at most ${QUORUM_LABELS_MAX} labels (found ${entries.length})`);
  const out: Record<string, number> = {};
  for (const x of entries) {
    const label = x.key.toLowerCase();
    if (!QUORUM_LABEL.test(label)) {
      r.fail(
        x.keyNode,
        x.path,
        `"${x.key}" is not a label name: letters, digits, ".", "_", "-" and "/", starting with a letter or digit`,
      );
      continue;
    }
    if (Object.hasOwn(out, label)) {
      r.fail(x.keyNode, x.path, `label "${label}" is listed twice (labels are compared in lower case)`);
      continue;
    }
    const n = r.int(x.node, x.path, 1, 100);
    if (n !== null) out[label] = n;
  }
  return out;
}

/** The approvals a gate needs in a run triggered as `trigger` (labels: only a pull request's run has them). */
export function gateQuorum(approval: ApprovalSpec, trigger?: TriggerFacts): number {
  const overrides = approval.quorum_by_label;
  if (!overrides || !trigger?.labels?.length) return approval.required;
  let best: { label: string; n: number } | null = null;
  for (const label of [...trigger.labels].sort()) {
    const n = overrides[label];
    if (n !== undefined && (best === null || n > best.n)) best = { label, n };
  }
  return best?.n ?? approval.required;
}

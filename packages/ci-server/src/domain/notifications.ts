/**
 * gocdnext's `notifications:` (docs/ci-gocdnext.md): plugin steps that run after a run reached its outcome.
 * Each entry names a trigger (`on`), a plugin (`uses` + `with`, settings as PLUGIN_* variables) and the
 * secrets it may read. A run of a pipeline with notifications carries one extra, last stage
 * (NOTIFY_STAGE) holding one job run per entry (`_notify_<index>`); run-state.ts releases those whose `on`
 * matches the outcome once the run finished, and skips the others. They never change the run's outcome.
 */
import { BUNDLE_KEYS, ENV_HINT, ENV_NAME, NAME_MAX } from './bundle-rules.js';
import type { JobSpec, NotificationSpec, NotifyOn, PipelineDocument } from './bundle-types.js';
import { pluginImage, readPluginSettings } from './gocdnext-job.js';
import type { RunStatus } from './run-types.js';
import { type Entry, indexPath, type Reader } from './yaml-reader.js';

export const NOTIFY_ON: readonly NotifyOn[] = ['failure', 'success', 'always', 'canceled'];
/** The stage a run's notification jobs live in (gocdnext's reserved name). */
export const NOTIFY_STAGE = '_notifications';
const JOB_PREFIX = '_notify_';

export const notifyJobName = (index: number): string => `${JOB_PREFIX}${index}`;

/** The entry index a notification job run's name stands for; null for any other name. */
export function notifyIndex(name: string): number | null {
  const m = /^_notify_(0|[1-9][0-9]{0,3})$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** Whether a notification with trigger `on` fires for a run that ended `outcome`. */
export function notifyMatches(on: NotifyOn, outcome: RunStatus): boolean {
  if (on === 'always') return true;
  if (on === 'failure') return outcome === 'failed';
  if (on === 'canceled') return outcome === 'canceled';
  return outcome === 'success';
}

/** Reads `notifications:`; null when it is not a list. `stages` and `jobs` are checked for the reserved names. */
export function readNotifications(r: Reader, e: Entry): NotificationSpec[] | null {
  const items = r.seq(e.node, e.path, 'a list of notifications (on, uses, with, secrets)');
  if (!items) return null;
  const out: NotificationSpec[] = [];
  items.forEach((item, i) => {
    const path = indexPath(e.path, i);
    const n = r.map(item, path, BUNDLE_KEYS.notification, ['on', 'uses']);
    if (!n?.on || !n.uses) return;
    // gocdnext trims and lower-cases `on` before matching it.
    const raw = r.str(n.on.node, n.on.path);
    const on = raw?.trim().toLowerCase();
    if (raw !== null && !(NOTIFY_ON as readonly string[]).includes(on ?? ''))
      r.fail(n.on.node, n.on.path, `"${raw}" must be one of ${NOTIFY_ON.join(', ')}`);
    const uses = r.str(n.uses.node, n.uses.path, { max: 512 })?.trim() ?? null;
    const image = uses === null ? null : pluginImage(uses);
    if (uses !== null && image === null)
      r.fail(
        n.uses.node,
        n.uses.path,
        `"${uses}" is not a plugin reference: write <image>@<tag> or gocdnext/<name>@v1`,
      );
    const variables = n.with ? readPluginSettings(r, n.with) : {};
    const secrets = n.secrets
      ? (r.strList(n.secrets.node, n.secrets.path, {
          max: NAME_MAX,
          pattern: ENV_NAME,
          patternHint: ENV_HINT,
        }) ?? [])
      : [];
    if (uses === null || image === null || raw === null) return;
    out.push({ on: on as NotifyOn, uses, image, variables, secrets: [...new Set(secrets)] });
  });
  return out;
}

/** A pipeline with notifications cannot also use their reserved stage and job names. */
export function checkReservedNames(r: Reader, doc: PipelineDocument, where: Entry): void {
  if (!doc.notifications?.length) return;
  if (doc.stages.includes(NOTIFY_STAGE))
    r.fail(where.keyNode, where.path, `stage "${NOTIFY_STAGE}" is reserved for the notification jobs`);
  for (const name of Object.keys(doc.jobs))
    if (notifyIndex(name) !== null)
      r.fail(where.keyNode, where.path, `job name "${name}" is reserved for a notification job`);
}

/**
 * The job a job run stands for: the pipeline's own, or for a `_notify_<i>` run of a pipeline with
 * notifications, a plugin job built from entry i (no checkout needs, no services, no retries).
 */
export function jobOfRun(doc: PipelineDocument, name: string): JobSpec | undefined {
  if (Object.hasOwn(doc.jobs, name)) return doc.jobs[name];
  const index = notifyIndex(name);
  const n = index === null ? undefined : doc.notifications?.[index];
  if (!n) return undefined;
  return {
    stage: NOTIFY_STAGE,
    needs: [],
    variables: { ...n.variables },
    secrets: [...n.secrets],
    services: [],
    cache: [],
    test_reports: [],
    retry: 0,
    tags: [],
    image: n.image,
    uses: n.uses,
  };
}

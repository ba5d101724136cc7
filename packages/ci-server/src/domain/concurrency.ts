/**
 * Concurrency control of runs (a pipeline's `concurrency` key): the rule a pipeline declares, how it is read
 * from YAML, and the pure decisions the run services apply when a run is created and when one finishes.
 *
 * - `parallel` (the default): runs start at once, side by side.
 * - `serial` (gocdnext's spelling): one run of the group at a time; a newer run waits `queued` until every
 *   older run of the group has finished, then the oldest waiting run starts.
 * - `cancel-superseded`: a newer run cancels the older runs of the group on the same git ref that are still
 *   queued or running, then starts at once.
 *
 * The group is the pipeline itself, or a name shared by pipelines of one project (`concurrency: {group,
 * mode}`); the runs of a group are ordered by the group's own sequence, taken when each run is created.
 */
import { isMap } from 'yaml';
import type { Entry, Reader } from './yaml-reader.js';

export const CONCURRENCY_MODES = ['parallel', 'serial', 'cancel-superseded'] as const;
export type ConcurrencyMode = (typeof CONCURRENCY_MODES)[number];

/** Stored on a pipeline document only when it is not `parallel` (so older bundles keep their digest). */
export interface ConcurrencySpec {
  mode: Exclude<ConcurrencyMode, 'parallel'>;
  /** A group shared with other pipelines of the project; absent: the pipeline alone. */
  group?: string;
}

export const CONCURRENCY_GROUP = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;
const GROUP_HINT = 'letters, digits, "_", "." and "-" (up to 63, starting with a letter or digit)';

/** `concurrency: serial` or `concurrency: {group: deploy, mode: serial}` (mode defaults to serial). */
export function readConcurrency(r: Reader, e: Entry): ConcurrencySpec | undefined {
  const modeOf = (entry: Entry): ConcurrencyMode | null => {
    const s = r.str(entry.node, entry.path);
    if (s === null) return null;
    if ((CONCURRENCY_MODES as readonly string[]).includes(s)) return s as ConcurrencyMode;
    r.fail(entry.node, entry.path, `"${s}" must be one of ${CONCURRENCY_MODES.join(', ')}`);
    return null;
  };
  const node = r.resolve(e.node);
  if (node && isMap(node)) {
    const m = r.map(e.node, e.path, ['group', 'mode']);
    if (!m) return undefined;
    const mode = m.mode ? modeOf(m.mode) : 'serial';
    const group = m.group
      ? r.str(m.group.node, m.group.path, { pattern: CONCURRENCY_GROUP, patternHint: GROUP_HINT })
      : undefined;
    if (mode === null || group === null) return undefined;
    if (mode === 'parallel') {
      if (group !== undefined)
        r.fail(e.node, e.path, 'a group needs mode serial or cancel-superseded: parallel runs share nothing');
      return undefined;
    }
    return group === undefined ? { mode } : { mode, group };
  }
  const mode = modeOf(e);
  return mode === null || mode === 'parallel' ? undefined : { mode };
}

/** The group key of a pipeline's runs inside its project; null for parallel pipelines. */
export function concurrencyKey(pipelineId: string, spec: ConcurrencySpec | undefined): string | null {
  if (!spec) return null;
  return spec.group !== undefined ? `group:${spec.group}` : `pipeline:${pipelineId}`;
}

/** A run of a group as the decisions see it: not yet finished, in the group's order. */
export interface GroupRun {
  id: string;
  /** The group's sequence number: creation order across the group's pipelines. */
  seq: number;
  /** Created but held back by `serial` (never started). */
  waiting: boolean;
  gitRef: string | null;
}

export interface CreateDecision {
  /** Start the new run now, or leave it waiting (serial). */
  start: boolean;
  /** The run it waits for: the group's newest unfinished run before it. */
  waitFor: string | null;
  /** Older runs to cancel (cancel-superseded), as superseded by the new run. */
  cancel: string[];
}

/** What happens to a new run of `mode` given the group's other unfinished runs. */
export function decideOnCreate(
  mode: ConcurrencySpec['mode'],
  newRun: { seq: number; gitRef: string | null },
  unfinished: readonly GroupRun[],
): CreateDecision {
  const older = unfinished.filter((r) => r.seq < newRun.seq).sort((a, b) => a.seq - b.seq);
  if (mode === 'cancel-superseded')
    return {
      start: true,
      waitFor: null,
      cancel: older.filter((r) => r.gitRef === newRun.gitRef).map((r) => r.id),
    };
  const previous = older.at(-1);
  return previous
    ? { start: false, waitFor: previous.id, cancel: [] }
    : { start: true, waitFor: null, cancel: [] };
}

export interface ReleaseDecision {
  /** The waiting run to start now (the oldest), or null while a started run is unfinished. */
  start: string | null;
  /** Each still-waiting run and the run it now waits for (its predecessor in the group). */
  waitFor: { id: string; waitFor: string }[];
}

/**
 * After a run of the group finished (or was canceled while waiting): the oldest waiting run starts when no
 * started run is unfinished, and every other waiting run waits for the unfinished run just before it.
 */
export function decideRelease(unfinished: readonly GroupRun[]): ReleaseDecision {
  const ordered = [...unfinished].sort((a, b) => a.seq - b.seq);
  const busy = ordered.some((r) => !r.waiting);
  const first = ordered.find((r) => r.waiting);
  const start = !busy && first ? first.id : null;
  const waitFor: { id: string; waitFor: string }[] = [];
  ordered.forEach((r, i) => {
    if (r.waiting && r.id !== start && i > 0) waitFor.push({ id: r.id, waitFor: ordered[i - 1].id });
  });
  return { start, waitFor };
}

/** Pipelines of one bundle naming the same group must agree on its mode; the message for each that does not. */
export function groupConflicts(
  pipelines: readonly { name: string; concurrency?: ConcurrencySpec }[],
): { pipeline: string; message: string }[] {
  const first = new Map<string, { name: string; mode: string }>();
  const out: { pipeline: string; message: string }[] = [];
  for (const p of pipelines) {
    const g = p.concurrency?.group;
    if (g === undefined) continue;
    const seen = first.get(g);
    if (!seen) first.set(g, { name: p.name, mode: p.concurrency!.mode });
    else if (seen.mode !== p.concurrency!.mode)
      out.push({
        pipeline: p.name,
        message: `concurrency group "${g}" is ${seen.mode} in pipeline "${seen.name}": every pipeline of a group takes the same mode`,
      });
  }
  return out;
}

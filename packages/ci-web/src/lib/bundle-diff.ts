// What applying a bundle will change, computed in the browser before sending (the API has no dry run):
// the bundle is parsed with `yaml`, compared with the project as the server has it (its pipelines' applied
// YAML) pipeline by pipeline, and each changed pipeline gets a line diff of its normalised YAML. Apply is a
// full declaration, so pipelines missing from the bundle are shown as archived.
import { parse, stringify } from 'yaml';

export type PipelineChange =
  | { kind: 'added'; name: string; diff: DiffLine[] }
  | { kind: 'changed'; name: string; diff: DiffLine[] }
  | { kind: 'unchanged'; name: string }
  | { kind: 'archived'; name: string };

export interface ApplyPlan {
  slug: string;
  newProject: boolean;
  projectFields: { field: string; before: string; after: string }[];
  pipelines: PipelineChange[];
}

export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
  /** Position in the diff (a stable key for rendering). */
  n: number;
}

export interface CurrentProject {
  name: string;
  description: string | null;
  pipelines: { name: string; yaml: string }[];
}

/** A stable text for comparing two pipeline definitions (keys in their written order, no comments). */
export function normalise(doc: unknown): string {
  return stringify(doc, { lineWidth: 0 }).trimEnd();
}

/** Reads the slug and pipelines of a bundle; throws a readable error when it cannot. */
export function readBundle(text: string): {
  slug: string;
  name: string;
  description: string | null;
  pipelines: { name: string; doc: unknown }[];
} {
  const doc = parse(text) as {
    project?: { slug?: unknown; name?: unknown; description?: unknown };
    pipelines?: unknown;
  };
  const slug = doc?.project?.slug;
  if (typeof slug !== 'string' || !slug) throw new Error('The bundle has no project.slug.');
  const list = Array.isArray(doc.pipelines) ? doc.pipelines : [];
  return {
    slug,
    name: typeof doc.project?.name === 'string' ? doc.project.name : slug,
    description: typeof doc.project?.description === 'string' ? doc.project.description : null,
    pipelines: list
      .filter((p): p is { name: string } => typeof (p as { name?: unknown })?.name === 'string')
      .map((p) => ({ name: p.name, doc: p })),
  };
}

export function planApply(text: string, current: CurrentProject | null): ApplyPlan {
  const bundle = readBundle(text);
  const plan: ApplyPlan = {
    slug: bundle.slug,
    newProject: current === null,
    projectFields: [],
    pipelines: [],
  };
  if (current) {
    if (current.name !== bundle.name)
      plan.projectFields.push({ field: 'name', before: current.name, after: bundle.name });
    if ((current.description ?? '') !== (bundle.description ?? ''))
      plan.projectFields.push({
        field: 'description',
        before: current.description ?? '',
        after: bundle.description ?? '',
      });
  }
  const existing = new Map((current?.pipelines ?? []).map((p) => [p.name, p.yaml]));
  for (const p of bundle.pipelines) {
    const after = normalise(p.doc);
    const stored = existing.get(p.name);
    if (stored === undefined) {
      plan.pipelines.push({
        kind: 'added',
        name: p.name,
        diff: lineDiff('', after).filter((l) => l.text !== ''),
      });
      continue;
    }
    const before = normalise(parse(stored));
    plan.pipelines.push(
      before === after
        ? { kind: 'unchanged', name: p.name }
        : { kind: 'changed', name: p.name, diff: lineDiff(before, after) },
    );
  }
  const inBundle = new Set(bundle.pipelines.map((p) => p.name));
  for (const name of existing.keys())
    if (!inBundle.has(name)) plan.pipelines.push({ kind: 'archived', name });
  return plan;
}

/** A line diff by longest common subsequence (pipelines are small: quadratic is fine). */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: Omit<DiffLine, 'n'>[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push({ op: '-', text: a[i++] });
    else out.push({ op: '+', text: b[j++] });
  }
  while (i < n) out.push({ op: '-', text: a[i++] });
  while (j < m) out.push({ op: '+', text: b[j++] });
  return out.map((l, n) => ({ ...l, n }));
}

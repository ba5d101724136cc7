/**
 * Pipeline-level rules of gocdnext's dialect that span jobs: stages inferred for a jobs-only document,
 * the `manual` material, and the references between jobs that only the whole pipeline can check
 * (`needs_artifacts` sources, `${{ needs.<job>.outputs.<alias> }}`).
 */
import { isMap, isScalar } from 'yaml';
import type { JobRead } from './job-read.js';
import { outputRefs, selectCell } from './output-refs.js';
import type { UpstreamRef } from './pipeline-read.js';
import type { Entry, Reader } from './yaml-reader.js';

/** The stage of a jobs-only document whose jobs name none. */
export const DEFAULT_STAGE = 'default';

/** `- manual: true`: the pipeline runs only when someone starts it. */
export function readManual(r: Reader, e: Entry): 'manual' | null {
  const node = r.resolve(e.node);
  if (!node || !isScalar(node) || typeof node.value !== 'boolean')
    return r.failNull(e.node, e.path, 'must be true or false');
  return node.value ? 'manual' : null;
}

/**
 * Stages of a document without `stages`: those its jobs name, in the order they first appear, moved so
 * that a stage comes after the stages of the jobs its jobs need. When no job names a stage, all jobs are in
 * one stage, "default"; when only some do, the others are an error (there is no stage to infer).
 */
export function inferStages(
  r: Reader,
  entries: Entry[],
  jobsPath: string,
): { stages: string[]; defaultStage?: string } {
  const stageOf = new Map<string, string>();
  const needsOf = new Map<string, string[]>();
  for (const e of entries) {
    const node = r.resolve(e.node);
    if (!node || !isMap(node)) continue;
    for (const pair of node.items) {
      const k = r.resolve(pair.key as never);
      const key = k && isScalar(k) ? String(k.value) : '';
      const v = r.resolve(pair.value as never);
      if (key === 'stage' && v && isScalar(v) && typeof v.value === 'string') stageOf.set(e.key, v.value);
      if (key === 'needs' && v && 'items' in v)
        needsOf.set(
          e.key,
          (v.items as unknown[]).flatMap((x) => {
            const s = r.resolve(x as never);
            return s && isScalar(s) ? [String(s.value)] : [];
          }),
        );
    }
  }
  if (stageOf.size === 0) return { stages: [DEFAULT_STAGE], defaultStage: DEFAULT_STAGE };
  const order: string[] = [];
  for (const e of entries) {
    const s = stageOf.get(e.key);
    if (s !== undefined && !order.includes(s)) order.push(s);
  }
  // Stage A must come after stage B when a job of A needs a job of B: a stable topological order.
  const after = new Map<string, Set<string>>(order.map((s) => [s, new Set<string>()]));
  for (const [job, needs] of needsOf) {
    const s = stageOf.get(job);
    for (const n of needs) {
      const t = stageOf.get(n);
      if (s !== undefined && t !== undefined && t !== s) after.get(s)!.add(t);
    }
  }
  const out: string[] = [];
  const placing = new Set<string>();
  const place = (s: string): void => {
    if (out.includes(s) || placing.has(s)) return;
    placing.add(s);
    for (const t of order) if (after.get(s)!.has(t)) place(t);
    placing.delete(s);
    out.push(s);
  };
  for (const s of order) place(s);
  if (stageOf.size < entries.length) {
    const missing = entries.filter((e) => !stageOf.has(e.key)).map((e) => e.key);
    r.fail(
      null,
      jobsPath,
      `no "stages" list, and job(s) ${missing.join(', ')} name no stage: add "stage" to each job`,
    );
  }
  return { stages: out };
}

/**
 * `needs_artifacts` names a job whose artifacts exist when this one starts (an earlier stage, or one of its
 * needs), or with `from_pipeline` an upstream material's pipeline; `${{ needs.J.outputs.A }}` names a job
 * J of `needs` that declares output A.
 */
export function checkGocdnextJobs(
  r: Reader,
  jobs: Map<string, JobRead>,
  upstreams: UpstreamRef[],
  pipelineVariables: Record<string, string> = {},
): void {
  for (const [name, job] of jobs) {
    const where = job.path;
    // An id_tokens name that is also a pipeline variable would make `$NAME` ambiguous (gocdnext refuses it).
    for (const token of Object.keys(job.spec.id_tokens ?? {}))
      if (token in pipelineVariables)
        r.fail(
          job.keyNode,
          `${where}.id_tokens.${token}`,
          `"${token}" is also a pipeline variable: the token needs a name of its own`,
        );
    for (const [i, need] of (job.spec.needs_artifacts ?? []).entries()) {
      const at = `${where}.needs_artifacts[${i}].from_job`;
      if (need.from_pipeline !== undefined) {
        if (!upstreams.some((u) => u.material.pipeline === need.from_pipeline))
          r.fail(
            job.keyNode,
            at.replace(/from_job$/, 'from_pipeline'),
            `"${need.from_pipeline}" is not an upstream material of this pipeline`,
          );
        continue;
      }
      const source = jobs.get(need.from_job);
      if (!source) r.fail(job.keyNode, at, `needs artifacts of unknown job "${need.from_job}"`);
      else if (!(source.stageIndex < job.stageIndex || job.spec.needs.includes(need.from_job)))
        r.fail(
          job.keyNode,
          at,
          `"${need.from_job}" is not finished when "${name}" starts: put it in an earlier stage or in needs`,
        );
      else if (!source.spec.artifacts)
        r.fail(job.keyNode, at, `job "${need.from_job}" declares no artifacts`);
    }
    const texts = Object.entries(job.spec.variables);
    for (const [variable, value] of texts) {
      for (const { job: from, selector, alias } of outputRefs(value)) {
        const source = jobs.get(from);
        const ref = `\${{ needs.${from}${selector === null ? '' : `.matrix[${selector}]`}.outputs.${alias} }}`;
        const at = `${where}.variables.${variable}`;
        if (!source) r.fail(job.keyNode, at, `${ref}: no job "${from}"`);
        else if (!(source.stageIndex < job.stageIndex || job.spec.needs.includes(from)))
          r.fail(
            job.keyNode,
            at,
            `${ref}: "${from}" is not finished when "${name}" starts: put it in an earlier stage or in needs`,
          );
        else if (!source.spec.outputs?.[alias])
          r.fail(job.keyNode, at, `${ref}: job "${from}" declares no output "${alias}"`);
        else if (source.spec.matrix && selector === null)
          r.fail(
            job.keyNode,
            at,
            `${ref}: "${from}" has a matrix, so one cell must be picked: \${{ needs.${from}.matrix[K=V].outputs.${alias} }}`,
          );
        else if (!source.spec.matrix && selector !== null)
          r.fail(
            job.keyNode,
            at,
            `${ref}: "${from}" has no matrix: drop the matrix[...] selector and use the bare form`,
          );
        else if (source.spec.matrix && selector !== null) {
          const picked = selectCell(selector, source.spec.matrix);
          if ('error' in picked) r.fail(job.keyNode, at, `${ref}: ${picked.error}`);
        }
      }
    }
  }
}

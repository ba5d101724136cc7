// gocdnext's job inputs at dispatch (pure; docs/ci-gocdnext.md): its built-in job variables (its YAML
// reference, "CI built-ins"), set for every job beside the spec's own CI_* ones; which stored artifacts a
// job's `needs_artifacts` entries select; and the `${{ needs.<job>.outputs.<alias> }}` references (with a
// matrix job's `matrix[SEL]` cell selector) replaced by the outputs earlier jobs of the run returned. dispatch/job-inputs.ts does the reading.
import type { JobSpec, NeededArtifacts } from '../domain/index.js';
import { globRegExp, outputRefs, selectCell } from '../domain/index.js';

export interface GocdnextFacts {
  projectId: string;
  branch: string;
  sha: string;
  matrix: Record<string, string>;
}

export function gocdnextBuiltins(f: GocdnextFacts): Record<string, string> {
  const out: Record<string, string> = {
    GOCDNEXT: 'true',
    CI_PROJECT_ID: f.projectId,
    CI_BRANCH: f.branch,
    // Empty until the checkout resolves the commit; the agent fills it in then (like CI_COMMIT_SHA).
    CI_COMMIT_SHORT_SHA: f.sha.slice(0, 8),
  };
  const cell = Object.keys(f.matrix).sort();
  if (cell.length > 0) out.GOCDNEXT_MATRIX = cell.map((k) => `${k}=${f.matrix[k]}`).join(',');
  return out;
}

/** A ready artifact a needs_artifacts entry may select. */
export interface StoredArtifact {
  id: string;
  job_name: string;
  path: string;
  size_bytes: number;
  content_sha256: string | null;
}

export interface SelectedArtifact {
  artifactId: string;
  path: string;
  dest: string;
  sizeBytes: bigint;
  contentSha256: string;
  fromJob: string;
}

function clean(p: string): string {
  return p.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/**
 * Whether an artifact file matches one entry of `paths`: the path itself, a file under it (a directory such
 * as `web/node_modules/`), or a glob over file paths (`dist/*.tar.gz`).
 */
export function artifactPathMatches(pattern: string, file: string): boolean {
  const p = clean(pattern);
  if (p === '' || p === '.') return true;
  if (file === p || file.startsWith(`${p}/`)) return true;
  return /[*?[]/.test(p) && globRegExp(p).test(file);
}

/**
 * The files one entry brings (every ready artifact of `from_job`, or those its `paths` select), each placed
 * under `dest`; a one-line reason when there is none, as gocdnext fails such a job before it runs.
 */
export function selectArtifacts(
  entry: NeededArtifacts,
  artifacts: readonly StoredArtifact[],
  scope: string,
): SelectedArtifact[] | string {
  const own = artifacts.filter((a) => a.job_name === entry.from_job);
  const picked =
    entry.paths.length === 0
      ? own
      : own.filter((a) => entry.paths.some((p) => artifactPathMatches(p, a.path)));
  if (picked.length === 0)
    return entry.paths.length === 0
      ? `needs_artifacts: job "${entry.from_job}" (${scope}) has no ready artifacts`
      : `needs_artifacts: job "${entry.from_job}" (${scope}) has no ready artifact matching ${entry.paths.join(', ')}`;
  const dest = clean(entry.dest) || '.';
  return picked.map((a) => ({
    artifactId: a.id,
    path: a.path,
    dest,
    sizeBytes: BigInt(a.size_bytes),
    contentSha256: a.content_sha256 ?? '',
    fromJob: a.job_name,
  }));
}

/** Jobs whose outputs the job's variables (and so its plugin settings) read. */
export function outputSources(job: JobSpec): Set<string> {
  const out = new Set<string>();
  for (const v of Object.values(job.variables)) for (const ref of outputRefs(v)) out.add(ref.job);
  return out;
}

/** Where a job run's outputs are kept in the map resolveOutputs reads: the job, or `job[cell]` for a matrix cell. */
export function outputsKey(job: string, cell: string): string {
  return cell === '' ? job : `${job}[${cell}]`;
}

export interface OutputsResolved {
  variables: Record<string, string>;
  /** Values to mask in the job's log: those of length 8 or more, and every one declared `masked`. */
  masks: string[];
}

/**
 * The job's variables with every `${{ needs.J.outputs.A }}` (or, for a matrix job J, the cell its
 * `${{ needs.J.matrix[SEL].outputs.A }}` selects) replaced by the value job J of this run returned
 * (`outputs` is keyed by outputsKey; `maskedOf` maps J to the aliases it declares masked, `matrixOf` to its
 * matrix). A job that returned no such output fails the dispatch with a reason naming both.
 */
export function resolveOutputs(
  variables: Record<string, string>,
  outputs: ReadonlyMap<string, Record<string, string>>,
  maskedOf: (job: string) => ReadonlySet<string>,
  matrixOf: (job: string) => Record<string, string[]> | undefined = () => undefined,
): OutputsResolved | string {
  const masks = new Set<string>();
  const out: Record<string, string> = {};
  let failure: string | null = null;
  for (const [name, value] of Object.entries(variables)) {
    let text = value;
    for (const ref of outputRefs(value)) {
      let key = ref.job;
      if (ref.selector !== null) {
        const picked = selectCell(ref.selector, matrixOf(ref.job) ?? {});
        if ('error' in picked) {
          failure ??= `${ref.whole} in ${name}: ${picked.error}`;
          continue;
        }
        key = outputsKey(ref.job, picked.key);
      }
      const got = outputs.get(key)?.[ref.alias];
      if (got === undefined) {
        const which = ref.selector === null ? '' : ` (matrix cell ${key.slice(ref.job.length)})`;
        failure ??= `${ref.whole} in ${name}: job "${ref.job}"${which} of this run returned no output "${ref.alias}"`;
        continue;
      }
      if (got.length >= 8 || maskedOf(ref.job).has(ref.alias)) masks.add(got);
      text = text.split(ref.whole).join(got);
    }
    out[name] = text;
  }
  return failure ?? { variables: out, masks: [...masks] };
}

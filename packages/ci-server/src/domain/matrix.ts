/**
 * Matrix jobs: one job run per combination of the matrix values, exported to the job as environment.
 *
 * Combinations come out in a deterministic order: keys in declaration order, values in list order, the
 * first key varying slowest (like nested loops). A job without a matrix expands to one run with `{}`.
 */

export type Matrix = Record<string, string[]>;
export type MatrixCombination = Record<string, string>;

/** Upper bound on combinations per job, checked by the bundle validator (same bound as the big hosted CIs). */
export const MAX_MATRIX_COMBINATIONS = 256;

/** Every combination of `matrix`; `[{}]` for no matrix or an empty one. */
export function expandMatrix(matrix: Matrix | undefined | null): MatrixCombination[] {
  let out: MatrixCombination[] = [{}];
  for (const [key, values] of Object.entries(matrix ?? {})) {
    const next: MatrixCombination[] = [];
    for (const combo of out) for (const value of values) next.push({ ...combo, [key]: value });
    out = next;
  }
  return out;
}

/** How many runs `matrix` expands to, without building them. */
export function matrixSize(matrix: Matrix | undefined | null): number {
  return Object.values(matrix ?? {}).reduce((n, values) => n * values.length, 1);
}

/** Display name of a job run: `test` or `test [NODE=20, OS=linux]`. */
export function jobRunDisplayName(
  jobName: string,
  combination: MatrixCombination | undefined | null,
): string {
  const parts = Object.entries(combination ?? {}).map(([k, v]) => `${k}=${v}`);
  return parts.length === 0 ? jobName : `${jobName} [${parts.join(', ')}]`;
}

/** A stable identity of a combination (keys sorted), used to tell attempts of the same job run apart. */
export function matrixKey(combination: MatrixCombination | undefined | null): string {
  const entries = Object.entries(combination ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

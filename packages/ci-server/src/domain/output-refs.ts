// gocdnext's output references (its YAML reference, "Job outputs"): `${{ needs.J.outputs.A }}`, and for a
// job with a matrix the selector form `${{ needs.J.matrix[SEL].outputs.A }}` that picks one cell, SEL being
// `VALUE` (a one-dimension matrix), `K=V` or `K1=V1,K2=V2` (any order). Pure: apply checks references with
// it, dispatch resolves them with it.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.

export const OUTPUT_REF =
  /\$\{\{\s*needs\.([A-Za-z0-9_.-]+?)(?:\.matrix\[([^\]\n]*)\])?\.outputs\.([A-Za-z0-9_-]+)\s*\}\}/g;

export interface OutputRef {
  whole: string;
  job: string;
  /** The text between `matrix[` and `]`; null for the bare form. */
  selector: string | null;
  alias: string;
}

export function outputRefs(text: string): OutputRef[] {
  return [...text.matchAll(OUTPUT_REF)].map((m) => ({
    whole: m[0],
    job: m[1],
    selector: m[2] ?? null,
    alias: m[3],
  }));
}

/** A matrix cell as one string: `K=V` pairs sorted by key, joined by `,` (as GOCDNEXT_MATRIX). */
export function cellKey(cell: Record<string, string>): string {
  return Object.keys(cell)
    .sort()
    .map((k) => `${k}=${cell[k]}`)
    .join(',');
}

/**
 * The cell a selector names in a job's matrix (`dims`: dimension -> values), as its cellKey; or why it names
 * none, in gocdnext's words (the dimensions and values it could have named).
 */
export function selectCell(
  selector: string,
  dims: Record<string, string[]>,
): { key: string } | { error: string } {
  const names = Object.keys(dims);
  const parts = selector.split(',').map((p) => p.trim());
  const cell: Record<string, string> = {};
  if (parts.length === 1 && !parts[0].includes('=')) {
    if (names.length !== 1)
      return {
        error: `matrix[${selector}] is the one-dimension shortcut and the matrix has ${names.length} dimensions (${names.join(', ')}): use the explicit form matrix[k=v,...]`,
      };
    cell[names[0]] = parts[0];
  } else {
    for (const p of parts) {
      const eq = p.indexOf('=');
      const k = eq < 0 ? p : p.slice(0, eq).trim();
      if (eq < 0 || !(k in dims))
        return {
          error: `matrix[${selector}]: "${k}" is not a dimension of the matrix (${names.join(', ')})`,
        };
      if (k in cell) return { error: `matrix[${selector}]: "${k}" is given twice` };
      cell[k] = p.slice(eq + 1).trim();
    }
    const missing = names.filter((n) => !(n in cell));
    if (missing.length > 0)
      return { error: `matrix[${selector}] must name every dimension; missing ${missing.join(', ')}` };
  }
  for (const [k, v] of Object.entries(cell))
    if (!dims[k].includes(v))
      return { error: `matrix[${selector}]: ${k} has no value "${v}" (${dims[k].join(', ')})` };
  return { key: cellKey(cell) };
}

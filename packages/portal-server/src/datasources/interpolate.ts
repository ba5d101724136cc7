// `${NAME}` references in the string values of PORTAL_DATASOURCES. `$${` stands for a literal `${`.
// Unset variables are reported (with where they were used) instead of becoming empty strings, so the caller
// can mark that one datasource unavailable.

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface Interpolated {
  value: unknown;
  /** Variable names that are not set, in first-use order. */
  missing: string[];
  /** Dotted paths (e.g. `policy.agent.password`) of values that still hold an unresolved reference. */
  unresolved: Set<string>;
  /** Paths of values that took text from the environment: messages must not echo them. */
  resolved: Set<string>;
}

function pathJoin(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}

export function interpolate(value: unknown, env: NodeJS.ProcessEnv, basePath = ''): Interpolated {
  const missing: string[] = [];
  const unresolved = new Set<string>();
  const resolved = new Set<string>();
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v === 'string') {
      let broken = false;
      const out = v.replace(REFERENCE, (whole, name: string | undefined) => {
        if (name === undefined) return '${';
        const found = env[name];
        if (found === undefined) {
          broken = true;
          if (!missing.includes(name)) missing.push(name);
          return whole;
        }
        resolved.add(path);
        return found;
      });
      if (broken) unresolved.add(path);
      return out;
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, pathJoin(path, i)));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[k] = walk(item, pathJoin(path, k));
      return out;
    }
    return v;
  };
  return { value: walk(value, basePath), missing, unresolved, resolved };
}

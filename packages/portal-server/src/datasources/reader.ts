// The small value reader behind validate.ts: typed getters that record a problem (naming the datasource and
// the key) instead of throwing, skip type checks for values still holding an unresolved `${ENV}` reference,
// and never echo a value that came from the environment.

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  return String(v);
}

/** Collects problems for one datasource; values holding an unresolved reference skip type checks. */
export class Reader {
  constructor(
    private readonly label: string,
    private readonly errors: string[],
    private readonly unresolved: Set<string>,
    private readonly resolved: Set<string> = new Set(),
  ) {}

  /** How a bad value is shown: never the text of one that came from the environment (it may be a secret). */
  got(path: string, v: unknown): string {
    return this.resolved.has(path) ? 'a value from the environment' : describe(v);
  }

  problem(path: string, message: string): void {
    this.errors.push(`${this.label}: ${path} ${message}`);
  }

  pending(path: string): boolean {
    return this.unresolved.has(path);
  }

  unknownKeys(
    obj: Obj,
    allowed: Set<string>,
    base: string,
    hint?: (key: string) => string | undefined,
  ): void {
    for (const key of Object.keys(obj)) {
      if (allowed.has(key)) continue;
      const extra = hint?.(key);
      this.problem(base ? `${base}.${key}` : key, `is not a known key${extra ? ` (${extra})` : ''}`);
    }
  }

  string(obj: Obj, key: string, path: string, required = false): string | undefined {
    const v = obj[key];
    if (v === undefined || v === null) {
      if (required) this.problem(path, 'is required');
      return undefined;
    }
    if (typeof v === 'number' && key !== 'password') return String(v);
    if (typeof v !== 'string' || (v.trim() === '' && !this.pending(path))) {
      this.problem(path, `must be a non-empty string (got ${this.got(path, v)})`);
      return undefined;
    }
    return v;
  }

  bool(obj: Obj, key: string, path: string): boolean | undefined {
    const v = obj[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    if (!this.pending(path)) this.problem(path, `must be true or false (got ${this.got(path, v)})`);
    return undefined;
  }

  int(obj: Obj, key: string, path: string, min: number, max: number): number | undefined {
    const v = obj[key];
    if (v === undefined || v === null) return undefined;
    const n =
      typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    if (!this.pending(path))
      this.problem(path, `must be an integer between ${min} and ${max} (got ${this.got(path, v)})`);
    return undefined;
  }

  stringList(
    obj: Obj,
    key: string,
    path: string,
    check?: (s: string, at: string) => string | undefined,
  ): string[] | undefined {
    const v = obj[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) {
      this.problem(path, `must be a list of strings (got ${this.got(path, v)})`);
      return undefined;
    }
    const out: string[] = [];
    v.forEach((item, i) => {
      const at = `${path}[${i}]`;
      if (typeof item !== 'string' || item.trim() === '') {
        this.problem(at, `must be a non-empty string (got ${this.got(at, item)})`);
        return;
      }
      const bad = this.pending(at) ? undefined : check?.(item, at);
      if (bad) this.problem(at, bad);
      else out.push(item.trim());
    });
    return out;
  }

  oneOf<T extends string>(obj: Obj, key: string, path: string, values: readonly T[]): T | undefined {
    const v = obj[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
    if (!this.pending(path))
      this.problem(path, `must be one of ${values.join(', ')} (got ${this.got(path, v)})`);
    return undefined;
  }

  mapping(obj: Obj, key: string, path: string): Obj | undefined {
    const v = obj[key];
    if (v === undefined || v === null) return undefined;
    if (isObj(v)) return v;
    this.problem(path, `must be a mapping (got ${this.got(path, v)})`);
    return undefined;
  }
}

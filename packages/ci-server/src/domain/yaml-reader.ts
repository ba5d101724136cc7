/**
 * A typed reader over a `yaml` Document: it walks nodes, converts them to plain values and records every
 * problem as a `BundleError` with its path (`pipelines[0].jobs.compile.script`) and 1-based line/column.
 * The bundle parser is written in terms of it; nothing here knows the pipeline format.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import { formatDuration, parseDuration } from './durations.js';

/** One problem in a bundle. `line`/`column` are 1-based; null when the problem is not in any YAML text. */
export interface BundleError {
  message: string;
  path: string;
  line: number | null;
  column: number | null;
  /** Multipart variant: the file part the error is in. */
  file?: string;
}

/** Reports are cut off past this many errors; one typo should not produce a megabyte of 400. */
export const MAX_ERRORS = 100;

export type YNode = Node | null | undefined;

export interface Entry {
  key: string;
  keyNode: Node;
  node: YNode;
  path: string;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `a.b`, or `a["odd key"]` for keys that are not identifier-like. */
export function childPath(path: string, key: string): string {
  if (PLAIN_KEY.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}

/** `path: message (line 3, column 5)`: the form used in 400 bodies and logs. */
export function formatBundleError(e: BundleError): string {
  const where = e.line === null ? '' : ` (${e.file ? `${e.file}, ` : ''}line ${e.line}, column ${e.column})`;
  return `${e.path === '' ? '(document)' : e.path}: ${e.message}${where}`;
}

function closest(word: string, options: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const option of options) {
    const d = editDistance(word.toLowerCase(), option.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [option, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

export interface StrOptions {
  max?: number;
  pattern?: RegExp;
  /** How the pattern reads to a person, e.g. "letters, digits and _". */
  patternHint?: string;
  allowEmpty?: boolean;
  /** Also take numbers and booleans (as written); otherwise only strings are strings. */
  scalars?: boolean;
}

export class Reader {
  constructor(
    readonly text: string,
    readonly doc: Document.Parsed,
    readonly lc: LineCounter,
    readonly errors: BundleError[] = [],
    readonly file?: string,
  ) {}

  /** Line/column of a node (1-based), or null without a node. */
  pos(node: YNode): { line: number; column: number } | null {
    const offset = node?.range?.[0];
    if (offset === undefined) return null;
    const { line, col } = this.lc.linePos(offset);
    return { line, column: col };
  }

  fail(node: YNode, path: string, message: string): void {
    if (this.errors.length >= MAX_ERRORS) return;
    const p = this.pos(node);
    const error: BundleError = { message, path, line: p?.line ?? null, column: p?.column ?? null };
    if (this.file !== undefined) error.file = this.file;
    this.errors.push(error);
  }

  resolve(node: YNode): Node | null {
    if (node && isAlias(node)) return (node.resolve(this.doc) as Node | undefined) ?? null;
    return node ?? null;
  }

  /**
   * The entries of a mapping; unknown keys and missing required keys are errors. A key of `refused` (a
   * known key of another dialect this control plane does not honour) is an error giving its reason.
   */
  map(
    raw: YNode,
    path: string,
    allowed: readonly string[],
    required: readonly string[] = [],
    refused: Readonly<Record<string, string>> = {},
  ): Record<string, Entry> | null {
    const node = this.resolve(raw);
    if (!node || !isMap(node)) {
      this.fail(node ?? raw, path, `must be a mapping with keys ${allowed.join(', ')}`);
      return null;
    }
    const out: Record<string, Entry> = {};
    for (const pair of node.items) {
      const keyNode = this.resolve(pair.key as YNode);
      if (!keyNode || !isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object') {
        this.fail(keyNode ?? node, path, 'keys must be plain strings');
        continue;
      }
      const key = this.scalarSource(keyNode);
      const keyPath = childPath(path, key);
      if (!allowed.includes(key) && Object.hasOwn(refused, key)) {
        this.fail(keyNode, keyPath, `"${key}" is not supported: ${refused[key]}`);
        continue;
      }
      if (!allowed.includes(key)) {
        const hint = closest(key, allowed);
        this.fail(
          keyNode,
          keyPath,
          `unknown key "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}; allowed keys here: ${allowed.join(', ')}`,
        );
        continue;
      }
      out[key] = { key, keyNode, node: pair.value as YNode, path: keyPath };
    }
    for (const key of required) {
      if (!(key in out)) this.fail(node, childPath(path, key), `missing required key "${key}"`);
    }
    return out;
  }

  /** A mapping whose keys are names chosen by the user (jobs, variables). */
  entries(raw: YNode, path: string, what: string): Entry[] | null {
    const node = this.resolve(raw);
    if (!node || !isMap(node)) {
      this.fail(node ?? raw, path, `must be a mapping of ${what}`);
      return null;
    }
    const out: Entry[] = [];
    for (const pair of node.items) {
      const keyNode = this.resolve(pair.key as YNode);
      if (!keyNode || !isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object') {
        this.fail(keyNode ?? node, path, 'keys must be plain strings');
        continue;
      }
      const key = this.scalarSource(keyNode);
      if (key === '__proto__') {
        this.fail(keyNode, childPath(path, key), '"__proto__" is a reserved name');
        continue;
      }
      out.push({ key, keyNode, node: pair.value as YNode, path: childPath(path, key) });
    }
    return out;
  }

  seq(raw: YNode, path: string, what = 'a list'): YNode[] | null {
    const node = this.resolve(raw);
    if (!node || !isSeq(node)) {
      this.fail(node ?? raw, path, `must be ${what}`);
      return null;
    }
    return node.items as YNode[];
  }

  /** The `index`-th item of a sequence node, or the node itself when it is not a sequence. */
  item(raw: YNode, index: number): YNode {
    const node = this.resolve(raw);
    return node && isSeq(node) ? (node.items[index] as YNode) : node;
  }

  /** Text of a scalar as written for numbers and booleans (`1.10` stays "1.10"), its value for strings. */
  private scalarSource(node: Node): string {
    if (!isScalar(node)) return '';
    if (typeof node.value === 'string') return node.value;
    const range = node.range;
    if (range && (node.type === 'PLAIN' || node.type === undefined))
      return this.text.slice(range[0], range[1]);
    return String(node.value);
  }

  /** Any non-null scalar as a string. */
  scalar(raw: YNode, path: string, what = 'a string'): string | null {
    const node = this.resolve(raw);
    if (!node || !isScalar(node) || node.value === null || node.value === undefined) {
      this.fail(node ?? raw, path, `must be ${what}`);
      return null;
    }
    return this.scalarSource(node);
  }

  str(raw: YNode, path: string, opts: StrOptions = {}): string | null {
    const s = this.scalar(raw, path);
    if (s === null) return null;
    const node = this.resolve(raw);
    if (!opts.scalars && isScalar(node) && typeof node.value !== 'string') {
      return this.failNull(node, path, `must be a string (write "${s}" in quotes)`);
    }
    if (!opts.allowEmpty && s.trim() === '') return this.failNull(node, path, 'must not be empty');
    if (opts.max !== undefined && s.length > opts.max) {
      return this.failNull(node, path, `is ${s.length} characters long; at most ${opts.max} are allowed`);
    }
    if (opts.pattern && !opts.pattern.test(s)) {
      return this.failNull(
        node,
        path,
        `"${s}" is not valid: use ${opts.patternHint ?? String(opts.pattern)}`,
      );
    }
    return s;
  }

  int(raw: YNode, path: string, min: number, max: number): number | null {
    const node = this.resolve(raw);
    const value = node && isScalar(node) ? node.value : undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      return this.failNull(node ?? raw, path, `must be an integer ${range}`);
    }
    return value;
  }

  /** A list of scalars as strings; `allowScalar` also takes one bare scalar as a one-item list. */
  strList(raw: YNode, path: string, opts: StrOptions & { allowScalar?: boolean; nonEmpty?: boolean } = {}) {
    const node = this.resolve(raw);
    if (opts.allowScalar && node && isScalar(node) && node.value !== null) {
      const s = this.str(node, path, { ...opts, scalars: true });
      return s === null ? null : [s];
    }
    const items = this.seq(raw, path, 'a list of strings');
    if (!items) return null;
    if (opts.nonEmpty && items.length === 0) return this.failNull(node, path, 'must not be an empty list');
    const out: string[] = [];
    let ok = true;
    items.forEach((item, i) => {
      const s = this.str(item, indexPath(path, i), { ...opts, scalars: true });
      if (s === null) ok = false;
      else out.push(s);
    });
    return ok ? out : null;
  }

  /** A mapping of names (matching `keyPattern`) to scalars, values as strings. */
  strMap(raw: YNode, path: string, keyPattern: RegExp, keyHint: string): Record<string, string> | null {
    const entries = this.entries(raw, path, 'names to values');
    if (!entries) return null;
    const out: Record<string, string> = {};
    for (const e of entries) {
      if (!keyPattern.test(e.key)) {
        this.fail(e.keyNode, e.path, `"${e.key}" is not a valid name: use ${keyHint}`);
        continue;
      }
      const v = this.scalar(e.node, e.path, 'a string, number or boolean (write "" for an empty value)');
      if (v !== null) out[e.key] = v;
    }
    return out;
  }

  duration(raw: YNode, path: string, minMs = 1): number | null {
    const s = this.scalar(raw, path, 'a duration like 30s, 5m, 72h, 7d or 1h30m');
    if (s === null) return null;
    const ms = parseDuration(s);
    const node = this.resolve(raw);
    if (ms === null)
      return this.failNull(node, path, `"${s}" is not a duration; write e.g. 30s, 5m, 72h, 7d or 1h30m`);
    if (ms < minMs)
      return this.failNull(node, path, `"${s}" is too short; the minimum is ${formatDuration(minMs)}`);
    return ms;
  }

  failNull(node: YNode, path: string, message: string): null {
    this.fail(node, path, message);
    return null;
  }
}

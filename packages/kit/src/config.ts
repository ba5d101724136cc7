// Typed configuration from environment variables and an optional YAML file, validated at start.
// Every problem names the setting and what was expected, and all problems are reported at once.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

type Kind = 'string' | 'int' | 'bool' | 'port' | 'url' | 'enum';

export interface FieldSpec<K extends Kind = Kind> {
  /** Environment variable name, e.g. `CI_HTTP_PORT`. */
  env: string;
  kind: K;
  /** Dotted key in the YAML file; defaults to the env name. */
  yaml?: string;
  default?: FieldValue<K>;
  required?: boolean;
  values?: readonly string[];
  min?: number;
  max?: number;
  /** Redacted in `describeConfig` output. */
  secret?: boolean;
}

type FieldValue<K extends Kind> = K extends 'int' | 'port' ? number : K extends 'bool' ? boolean : string;

type Spec = Record<string, FieldSpec>;
export type ConfigOf<S extends Spec> = {
  [P in keyof S]: S[P]['default'] extends undefined
    ? FieldValue<S[P]['kind']> | undefined
    : FieldValue<S[P]['kind']>;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

export function parseBool(raw: string): boolean | undefined {
  const v = raw.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return undefined;
}

function lookupYaml(doc: unknown, dotted: string): unknown {
  let cur: unknown = doc;
  for (const part of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Reads a YAML configuration file; a missing or malformed file is a ConfigError naming the variable. */
export function readYamlConfig(path: string, envName: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError([`${envName}: cannot read ${path} (${(err as Error).message})`]);
  }
  try {
    const doc = parseYaml(text) ?? {};
    if (typeof doc !== 'object' || Array.isArray(doc)) {
      throw new Error('the top level must be a mapping');
    }
    return doc as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError([`${envName}: ${path} is not valid YAML (${(err as Error).message})`]);
  }
}

function coerce(spec: FieldSpec, raw: unknown, source: string): { value?: unknown; problem?: string } {
  const name = `${spec.env} (${source})`;
  const text = typeof raw === 'string' ? raw.trim() : raw;
  switch (spec.kind) {
    case 'string':
      if (typeof text !== 'string' && typeof text !== 'number')
        return { problem: `${name}: expected a string` };
      return { value: String(text) };
    case 'int':
    case 'port': {
      const n = typeof text === 'number' ? text : /^-?\d+$/.test(String(text)) ? Number(text) : Number.NaN;
      const min = spec.kind === 'port' ? 0 : (spec.min ?? Number.MIN_SAFE_INTEGER);
      const max = spec.kind === 'port' ? 65535 : (spec.max ?? Number.MAX_SAFE_INTEGER);
      if (!Number.isInteger(n) || n < min || n > max) {
        return { problem: `${name}: expected an integer between ${min} and ${max}, got "${String(raw)}"` };
      }
      return { value: n };
    }
    case 'bool': {
      const b = typeof text === 'boolean' ? text : parseBool(String(text));
      if (b === undefined) return { problem: `${name}: expected true or false, got "${String(raw)}"` };
      return { value: b };
    }
    case 'url': {
      try {
        new URL(String(text));
        return { value: String(text) };
      } catch {
        return { problem: `${name}: expected an absolute URL, got "${String(raw)}"` };
      }
    }
    case 'enum': {
      const v = String(text);
      if (!spec.values?.includes(v)) {
        return { problem: `${name}: expected one of ${spec.values?.join(', ')}, got "${v}"` };
      }
      return { value: v };
    }
  }
}

/**
 * Loads a configuration: environment first, then the YAML file's value, then the default.
 * Throws one ConfigError listing every bad or missing setting.
 */
export function loadConfig<S extends Spec>(
  spec: S,
  env: NodeJS.ProcessEnv = process.env,
  file: Record<string, unknown> = {},
): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, field] of Object.entries(spec)) {
    const fromEnv = env[field.env];
    const fromFile = lookupYaml(file, field.yaml ?? field.env);
    let raw: unknown;
    let source = 'environment';
    if (fromEnv !== undefined && fromEnv !== '') raw = fromEnv;
    else if (fromFile !== undefined && fromFile !== null) {
      raw = fromFile;
      source = 'config file';
    }
    if (raw === undefined) {
      if (field.required) problems.push(`${field.env}: required but not set`);
      out[key] = field.default;
      continue;
    }
    const { value, problem } = coerce(field, raw, source);
    if (problem) problems.push(problem);
    else out[key] = value;
  }
  if (problems.length) throw new ConfigError(problems);
  return out as ConfigOf<S>;
}

/** A printable view of a configuration with secrets redacted. */
export function describeConfig<S extends Spec>(spec: S, config: ConfigOf<S>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(spec)) {
    const value = (config as Record<string, unknown>)[key];
    out[field.env] = field.secret && value !== undefined ? '[redacted]' : value;
  }
  return out;
}

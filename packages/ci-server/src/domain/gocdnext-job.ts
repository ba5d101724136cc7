/**
 * Readers for the job keys of gocdnext's dialect (spec/pipeline-yaml.md, "gocdnext's dialect"; the table of
 * every key is docs/ci-gocdnext.md): `when`, `uses` + `with` / `image` + `settings` (a plugin: an image
 * configured through PLUGIN_* environment), `parallel.matrix`, `needs_artifacts`, `outputs`, `resources`,
 * `agent` and `id_tokens`. Each returns the one stored form; job-read.ts decides where it lands in the JobSpec.
 */

import {
  BUNDLE_KEYS,
  ENV_HINT,
  ENV_NAME,
  MAX_OUTPUTS,
  nameOpts,
  OUTPUT_ALIAS,
  REFUSED_KEYS,
  RESERVED_PREFIXES,
  WHEN_EVENTS,
} from './bundle-rules.js';
import type {
  IdTokenSpec,
  NeededArtifacts,
  OutputSpec,
  ResourceAmounts,
  ResourcesSpec,
  WhenSpec,
} from './bundle-types.js';
import { MAX_MATRIX_COMBINATIONS, matrixSize } from './matrix.js';
import { type Entry, indexPath, type Reader } from './yaml-reader.js';

/** Globs of `when.branch` and `when.paths`: no NUL, no `..` segment, not absolute. */
const GLOB_OK = /^(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\0]+$/;

/** `when:` of a pipeline or a job; `event`/`events` and `branch`/`branches` are one key each. */
export function readWhen(r: Reader, e: Entry): WhenSpec | null {
  const w = r.map(e.node, e.path, BUNDLE_KEYS.when, [], REFUSED_KEYS.when);
  if (!w) return null;
  const out: WhenSpec = { event: [], branch: [], paths: [] };
  const pairs: [keyof WhenSpec, string, string][] = [
    ['event', 'event', 'events'],
    ['branch', 'branch', 'branches'],
  ];
  for (const [field, one, many] of pairs) {
    if (w[one] && w[many]) r.fail(w[many].keyNode, w[many].path, `"${one}" and "${many}" are the same key`);
    const x = w[one] ?? w[many];
    if (!x) continue;
    const list = r.strList(x.node, x.path, { allowScalar: true }) ?? [];
    list.forEach((v, i) => {
      if (field === 'event' && !(WHEN_EVENTS as readonly string[]).includes(v))
        r.fail(r.item(x.node, i), indexPath(x.path, i), `"${v}" must be one of ${WHEN_EVENTS.join(', ')}`);
      if (field === 'branch' && !GLOB_OK.test(v))
        r.fail(r.item(x.node, i), indexPath(x.path, i), `"${v}" is not a branch name or glob`);
    });
    out[field] = [...new Set(list)];
  }
  if (w.paths) {
    const list = r.strList(w.paths.node, w.paths.path, { allowScalar: true }) ?? [];
    list.forEach((v, i) => {
      if (!GLOB_OK.test(v))
        r.fail(
          r.item(w.paths!.node, i),
          indexPath(w.paths!.path, i),
          `"${v}" must be a repository-relative glob (no leading "/", no "..")`,
        );
    });
    out.paths = [...new Set(list)];
  }
  return out;
}

/**
 * The image a plugin reference names. `gocdnext/<name>@<tag>` is gocdnext's short form for its published
 * plugins, `ghcr.io/klinux/gocdnext-plugin-<name>:<tag>`; any other `<image>@<tag>` is `<image>:<tag>`,
 * and a digest pin (`@sha256:…`) or a reference without `@` is taken as written.
 */
export function pluginImage(uses: string): string | null {
  if (uses === '' || /\s/.test(uses)) return null;
  const at = uses.indexOf('@');
  if (at < 0) return uses;
  const base = uses.slice(0, at);
  const tag = uses.slice(at + 1);
  if (base === '' || tag === '') return null;
  if (tag.startsWith('sha256:')) return uses;
  const short = /^gocdnext\/([a-z0-9][a-z0-9._-]*)$/.exec(base);
  if (short) return `ghcr.io/klinux/gocdnext-plugin-${short[1]}:${tag}`;
  return `${base}:${tag}`;
}

/** `with:` / `settings:` as PLUGIN_* variables: `working-dir` becomes PLUGIN_WORKING_DIR. */
export function readPluginSettings(r: Reader, e: Entry): Record<string, string> {
  const entries = r.entries(e.node, e.path, 'plugin settings (names to values)') ?? [];
  const out: Record<string, string> = {};
  for (const x of entries) {
    const name = `PLUGIN_${x.key.toUpperCase().replace(/[-.]/g, '_')}`;
    if (!ENV_NAME.test(name)) {
      r.fail(x.keyNode, x.path, `"${x.key}" cannot be a plugin setting: use letters, digits, "_" and "-"`);
      continue;
    }
    if (Object.hasOwn(out, name)) {
      r.fail(x.keyNode, x.path, `"${x.key}" gives ${name} a second time`);
      continue;
    }
    if (r.resolve(x.node) === null) {
      out[name] = '';
      continue;
    }
    const v = r.scalar(x.node, x.path, 'a string, number or boolean');
    if (v !== null) out[name] = v;
  }
  return out;
}

/** `parallel: {matrix: [ {DIM: [values]}, … ]}`: every dimension of every entry, one cartesian product. */
export function readParallel(r: Reader, e: Entry): Record<string, string[]> | null {
  const p = r.map(e.node, e.path, BUNDLE_KEYS.parallel, ['matrix'], REFUSED_KEYS.parallel);
  if (!p?.matrix) return null;
  const items = r.seq(p.matrix.node, p.matrix.path, 'a list of mappings of names to lists of values');
  if (!items) return null;
  const out: Record<string, string[]> = {};
  items.forEach((item, i) => {
    const path = indexPath(p.matrix!.path, i);
    for (const v of r.entries(item, path, 'names to lists of values') ?? []) {
      if (!ENV_NAME.test(v.key) || /^(CI_|GOCDNEXT_)/.test(v.key)) {
        r.fail(
          v.keyNode,
          v.path,
          `"${v.key}" is not a valid matrix dimension: use ${ENV_HINT}, not CI_ or GOCDNEXT_`,
        );
        continue;
      }
      if (Object.hasOwn(out, v.key)) {
        r.fail(v.keyNode, v.path, `matrix dimension "${v.key}" is declared twice`);
        continue;
      }
      const values = r.strList(v.node, v.path, { nonEmpty: true, allowEmpty: true });
      if (!values) continue;
      if (new Set(values).size !== values.length) r.fail(v.node, v.path, 'matrix values must be distinct');
      if (values.some((x) => x.includes(',') || x.includes('=')))
        r.fail(v.node, v.path, 'matrix values cannot contain "," or "="');
      out[v.key] = values;
    }
  });
  if (Object.keys(out).length === 0)
    return r.failNull(p.matrix.node, p.matrix.path, 'a matrix needs at least one dimension');
  if (matrixSize(out) > MAX_MATRIX_COMBINATIONS)
    r.fail(
      e.node,
      e.path,
      `the matrix has ${matrixSize(out)} combinations; at most ${MAX_MATRIX_COMBINATIONS} are allowed`,
    );
  return out;
}

const REL_PATH = /^(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\0]*$/;

export function readNeedsArtifacts(r: Reader, e: Entry): NeededArtifacts[] {
  const items = r.seq(e.node, e.path, 'a list of {from_job, from_pipeline, paths, dest}') ?? [];
  const out: NeededArtifacts[] = [];
  items.forEach((item, i) => {
    const path = indexPath(e.path, i);
    const n = r.map(item, path, BUNDLE_KEYS.neededArtifacts, ['from_job']);
    if (!n?.from_job) return;
    const fromJob = r.str(n.from_job.node, n.from_job.path, nameOpts);
    const entry: NeededArtifacts = { from_job: fromJob ?? '', paths: [], dest: './' };
    if (n.from_pipeline)
      entry.from_pipeline = r.str(n.from_pipeline.node, n.from_pipeline.path, nameOpts) ?? '';
    if (n.paths) entry.paths = r.strList(n.paths.node, n.paths.path) ?? [];
    for (const [k, p] of entry.paths.entries())
      if (!REL_PATH.test(p))
        r.fail(
          r.item(n.paths!.node, k),
          indexPath(n.paths!.path, k),
          `"${p}" must stay inside the workspace`,
        );
    if (n.dest) {
      const dest = r.str(n.dest.node, n.dest.path, { max: 1024 });
      if (dest !== null && !REL_PATH.test(dest))
        r.fail(n.dest.node, n.dest.path, `"${dest}" must stay inside the workspace`);
      else if (dest !== null) entry.dest = dest;
    }
    if (fromJob !== null) out.push(entry);
  });
  return out;
}

export function readOutputs(r: Reader, e: Entry): Record<string, OutputSpec> {
  const entries = r.entries(e.node, e.path, 'output aliases to variable names') ?? [];
  if (entries.length > MAX_OUTPUTS) r.fail(e.node, e.path, `at most ${MAX_OUTPUTS} outputs are allowed`);
  const out: Record<string, OutputSpec> = {};
  for (const x of entries) {
    if (!OUTPUT_ALIAS.test(x.key)) {
      r.fail(
        x.keyNode,
        x.path,
        `"${x.key}" is not a valid output alias: a lowercase letter, then letters, digits, _ and -`,
      );
      continue;
    }
    const node = r.resolve(x.node);
    let env: string | null;
    let masked = false;
    if (node && 'items' in node) {
      const o = r.map(x.node, x.path, BUNDLE_KEYS.output, ['env']);
      env = o?.env ? r.str(o.env.node, o.env.path) : null;
      if (o?.masked) {
        const m = r.resolve(o.masked.node);
        const v = m && 'value' in m ? (m as { value: unknown }).value : undefined;
        if (typeof v !== 'boolean') r.fail(o.masked.node, o.masked.path, 'must be true or false');
        else masked = v;
      }
    } else env = r.str(x.node, x.path);
    if (env === null) continue;
    if (!ENV_NAME.test(env)) {
      r.fail(x.node, x.path, `"${env}" is not a valid variable name: use ${ENV_HINT}`);
      continue;
    }
    out[x.key] = { env, masked };
  }
  return out;
}

const CPU = /^(\d+(\.\d+)?|\d+m)$/;
const MEMORY = /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?$/;
const MEMORY_UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
};

/** CPU in millicores, memory in bytes: how `resources` amounts compare. */
export function cpuMillis(q: string): number {
  return q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000;
}
export function memoryBytes(q: string): number {
  const m = /^(\d+(?:\.\d+)?)([A-Za-z]*)$/.exec(q)!;
  return Number(m[1]) * (MEMORY_UNITS[m[2]] ?? 1);
}

function readAmounts(r: Reader, e: Entry): ResourceAmounts | undefined {
  const a = r.map(e.node, e.path, BUNDLE_KEYS.resourceAmounts);
  if (!a) return undefined;
  const out: ResourceAmounts = {};
  if (a.cpu) {
    const v = r.str(a.cpu.node, a.cpu.path, {
      scalars: true,
      pattern: CPU,
      patternHint: 'cores like "2", "0.5" or millicores like "500m"',
    });
    if (v !== null) {
      if (cpuMillis(v) <= 0) r.fail(a.cpu.node, a.cpu.path, 'must be more than zero');
      out.cpu = v;
    }
  }
  if (a.memory) {
    const v = r.str(a.memory.node, a.memory.path, {
      scalars: true,
      pattern: MEMORY,
      patternHint: 'bytes with a unit like 256Mi, 4Gi or 512M',
    });
    if (v !== null) {
      if (memoryBytes(v) < 4 * 2 ** 20) r.fail(a.memory.node, a.memory.path, 'must be at least 4Mi');
      out.memory = v;
    }
  }
  return out;
}

/** `resources: {requests, limits}`; a request above its limit is an error. */
export function readResources(r: Reader, e: Entry): ResourcesSpec | null {
  const x = r.map(e.node, e.path, BUNDLE_KEYS.resources);
  if (!x) return null;
  const out: ResourcesSpec = {};
  if (x.requests) out.requests = readAmounts(r, x.requests);
  if (x.limits) out.limits = readAmounts(r, x.limits);
  const req = out.requests;
  const lim = out.limits;
  if (req?.cpu && lim?.cpu && cpuMillis(req.cpu) > cpuMillis(lim.cpu))
    r.fail(
      x.requests!.node,
      `${e.path}.requests.cpu`,
      `the request ${req.cpu} is above the limit ${lim.cpu}`,
    );
  if (req?.memory && lim?.memory && memoryBytes(req.memory) > memoryBytes(lim.memory))
    r.fail(
      x.requests!.node,
      `${e.path}.requests.memory`,
      `the request ${req.memory} is above the limit ${lim.memory}`,
    );
  return out;
}

/** `agent: {profile, tags}` as routing tags: the profile is the tag `profile:<name>`. */
export function readAgent(r: Reader, e: Entry): string[] {
  const a = r.map(e.node, e.path, BUNDLE_KEYS.agent);
  if (!a) return [];
  const tags: string[] = [];
  if (a.profile) {
    const profile = r.str(a.profile.node, a.profile.path, {
      pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/,
      patternHint: 'letters, digits, _ . - (at most 63)',
    });
    if (profile !== null) tags.push(`profile:${profile}`);
  }
  if (a.tags) tags.push(...(r.strList(a.tags.node, a.tags.path) ?? []));
  return tags;
}

/** Largest number of `id_tokens` of one job, and of audiences of one token. */
const ID_TOKENS_MAX = 16;

/**
 * `id_tokens: {NAME: {aud: <string or list>}}`: the variables a job's OIDC tokens arrive in. A name is a
 * variable name without the reserved `CI_`/`GOCDNEXT_` prefixes; `aud` is required (no default audience, as
 * in gocdnext: a token whose audience silently equals the issuer would pass misconfigured verifiers).
 */
export function readIdTokens(r: Reader, e: Entry): Record<string, IdTokenSpec> {
  const entries = r.entries(e.node, e.path, 'variable names to {aud}') ?? [];
  if (entries.length > ID_TOKENS_MAX)
    r.fail(e.node, e.path, `at most ${ID_TOKENS_MAX} id_tokens are allowed`);
  const out: Record<string, IdTokenSpec> = {};
  for (const x of entries) {
    if (!ENV_NAME.test(x.key) || RESERVED_PREFIXES.some((p) => x.key.startsWith(p))) {
      r.fail(
        x.keyNode,
        x.path,
        `"${x.key}" is not a valid id_tokens name: use ${ENV_HINT}, not starting with ${RESERVED_PREFIXES.join(' or ')}`,
      );
      continue;
    }
    const t = r.map(x.node, x.path, BUNDLE_KEYS.idToken, ['aud']);
    if (!t?.aud) continue;
    const aud = r.strList(t.aud.node, t.aud.path, { allowScalar: true, nonEmpty: true, max: 1000 }) ?? [];
    if (aud.length > ID_TOKENS_MAX)
      r.fail(t.aud.node, t.aud.path, `at most ${ID_TOKENS_MAX} audiences are allowed`);
    if (aud.some((a) => a.trim() === '')) r.fail(t.aud.node, t.aud.path, 'an audience cannot be empty');
    if (aud.length > 0) out[x.key] = { aud: [...new Set(aud)] };
  }
  return out;
}

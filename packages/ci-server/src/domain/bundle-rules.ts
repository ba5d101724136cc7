/**
 * The vocabulary of the pipeline format shared by the readers: allowed keys of every mapping, name rules,
 * enums and bounds. bundle-schema.ts states the same rules for editors; a test keeps the two in step.
 */
import type { GitEvent } from './bundle-types.js';
import type { Entry, Reader } from './yaml-reader.js';

/** Allowed keys of every mapping in the format; bundle-schema.ts is tested against this table. */
export const BUNDLE_KEYS = {
  bundle: ['project', 'pipelines'],
  project: ['slug', 'name', 'description'],
  pipeline: ['name', 'materials', 'parameters', 'variables', 'stages', 'services', 'jobs'],
  material: ['git', 'upstream', 'cron'],
  git: ['url', 'branch', 'on', 'poll_interval'],
  upstream: ['pipeline', 'stage', 'status'],
  cron: ['expression'],
  service: ['name', 'command', 'ready', 'image', 'pull'],
  ready: ['tcp', 'http', 'command', 'timeout'],
  job: [
    'stage',
    'script',
    'needs',
    'variables',
    'secrets',
    'services',
    'artifacts',
    'cache',
    'test_reports',
    'matrix',
    'timeout',
    'retry',
    'tags',
    'approval',
    'image',
    'pull',
    'network',
  ],
  artifacts: ['paths', 'when', 'expire_in'],
  cache: ['key', 'paths'],
  approval: ['description', 'required', 'timeout'],
} as const;

export const NAME_MAX = 200;
export const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** Secrets, parameters, variables and matrix keys: they become environment variable names. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ENV_HINT = 'letters, digits and _ (not starting with a digit)';
export const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;
/** Pipeline, stage and job names: up to 200 characters, no control characters, no outer spaces. */
const DISPLAY_NAME = /^(?!\s)[^\p{Cc}]*(?<!\s)$/u;
const DISPLAY_HINT = 'a name without control characters or leading/trailing spaces';
export const GIT_EVENTS: readonly GitEvent[] = ['push', 'pull_request', 'tag'];
export const ARTIFACT_WHEN = ['on_success', 'on_failure', 'always'] as const;
export const UPSTREAM_STATUS = ['success', 'failed', 'canceled'] as const;
export const RETRY_MAX = 10;
/** An OCI image reference: no spaces, at most 512 characters. */
export const IMAGE = /^[^\s]{1,512}$/;
export const PULL_POLICIES = ['always', 'if-not-present', 'never'] as const;
export const NETWORKS = ['host', 'none'] as const;
/** Keys a manual gate may carry; anything else on a gate would be accepted and never enforced. */
export const GATE_KEYS = ['stage', 'needs', 'approval'];

export const nameOpts = { max: NAME_MAX, pattern: DISPLAY_NAME, patternHint: DISPLAY_HINT };

/**
 * `pull`: always | if-not-present | never. Other CIs' spellings are accepted and stored in this form:
 * Woodpecker's `true` (always) and `false`, podman's `missing`, GitLab's `if-not-present`.
 */
export function readPull(r: Reader, e: Entry): (typeof PULL_POLICIES)[number] | undefined {
  const s = r.str(e.node, e.path, { scalars: true });
  if (s === null) return undefined;
  const v = s === 'true' ? 'always' : s === 'false' || s === 'missing' ? 'if-not-present' : s;
  if ((PULL_POLICIES as readonly string[]).includes(v)) return v as (typeof PULL_POLICIES)[number];
  r.fail(e.node, e.path, `"${s}" must be one of ${PULL_POLICIES.join(', ')}`);
  return undefined;
}

/** `image`: an OCI image reference. */
export function readImage(r: Reader, e: Entry): string | undefined {
  return (
    r.str(e.node, e.path, { pattern: IMAGE, patternHint: 'an image reference without spaces' }) ?? undefined
  );
}

/** The value of an enum-valued key, `dflt` when absent; an unknown value is an error. */
export function oneOf<T extends string>(r: Reader, e: Entry | undefined, values: readonly T[], dflt: T): T {
  if (!e) return dflt;
  const s = r.str(e.node, e.path);
  if (s === null) return dflt;
  if (!(values as readonly string[]).includes(s))
    r.fail(e.node, e.path, `"${s}" must be one of ${values.join(', ')}`);
  return (values as readonly string[]).includes(s) ? (s as T) : dflt;
}

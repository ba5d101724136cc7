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
  pipeline: [
    'name',
    'materials',
    'parameters',
    'variables',
    'stages',
    'services',
    'jobs',
    'when',
    'concurrency',
    'notifications',
  ],
  material: ['git', 'upstream', 'cron', 'manual'],
  git: ['url', 'branch', 'on', 'poll_interval', 'auto_register_webhook'],
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
    'uses',
    'with',
    'settings',
    'extends',
    'when',
    'parallel',
    'needs_artifacts',
    'outputs',
    'resources',
    'agent',
    'docker',
    'pull',
    'network',
    'id_tokens',
  ],
  artifacts: ['paths', 'when', 'expire_in', 'optional'],
  cache: ['key', 'paths'],
  approval: [
    'description',
    'required',
    'timeout',
    'approvers',
    'approver_groups',
    'allow_self_approval',
    'quorum_by_label',
  ],
  when: ['event', 'events', 'branch', 'branches', 'paths'],
  parallel: ['matrix'],
  neededArtifacts: ['from_job', 'from_pipeline', 'paths', 'dest'],
  output: ['env', 'masked'],
  idToken: ['aud'],
  resources: ['requests', 'limits'],
  resourceAmounts: ['cpu', 'memory'],
  agent: ['profile', 'tags'],
  notification: ['on', 'uses', 'with', 'secrets'],
} as const;

/**
 * gocdnext keys this control plane refuses, each with the reason given in the 400 (spec/pipeline-yaml.md:
 * never silently ignored). Keyed like BUNDLE_KEYS; docs/ci-gocdnext.md lists the same table.
 */
export const REFUSED_KEYS: Partial<Record<keyof typeof BUNDLE_KEYS, Record<string, string>>> = {
  pipeline: {
    include:
      'includes of other files are not resolved: put the jobs in this file, or use extends with a hidden ".name" job',
    template: 'pipeline templates are not supported: use extends with a hidden ".name" job',
    version: 'the file format has no versions here; remove the key',
    supersede: 'latest-wins supersede of gated runs is not implemented',
  },
  git: {
    secret_ref:
      'per-material credentials are not named in the pipeline here: set the repository credential in the project settings',
  },
  job: {
    rules: 'rules are not evaluated: use when (event, branch, paths) or an approval gate',
    cluster: 'there is no deploy-target cluster registry here: pass a kubeconfig as a secret',
    deploy: 'deployment tracking (environments, rollback) is not implemented',
    environment: 'deployment environments and change freezes are not implemented',
    coverage_report: 'coverage reports are not parsed: keep the file as an artifact',
    strategy: 'use parallel.matrix (or matrix) for a matrix',
  },
  when: {
    status: 'a status condition is not enforced at this level; remove it',
  },
  parallel: {
    count: 'identical parallel copies are not supported: use parallel.matrix with an index dimension',
  },
  service: {
    env: 'service environment is not supported: pass settings on the command line',
    node_selector: 'Kubernetes scheduling does not apply: agents run the services',
    tolerations: 'Kubernetes scheduling does not apply: agents run the services',
  },
};

/** gocdnext's trigger events (`when.event`). */
export const WHEN_EVENTS = ['push', 'pull_request', 'tag', 'manual', 'cron', 'upstream'] as const;
/** Output aliases, as gocdnext writes them: lowercase first, then letters, digits, `_` and `-`. */
export const OUTPUT_ALIAS = /^[a-z][a-zA-Z0-9_-]*$/;
export const MAX_OUTPUTS = 64;
/** Built-in variable prefixes no user-chosen name may take. */
export const RESERVED_PREFIXES = ['CI_', 'GOCDNEXT_'];

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
/** An image reference: no whitespace, and no leading `-` (the agent's podman would read it as an option). */
export const IMAGE = /^[^\s-][^\s]{0,511}$/;
export const IMAGE_HINT = 'an image reference without spaces, not starting with "-"';
export const PULL_POLICIES = ['always', 'if-not-present', 'never'] as const;
export const NETWORKS = ['host', 'none'] as const;
/** Keys a manual gate may carry (`timeout`: gocdnext's spelling of its wait window); nothing else is enforced on a gate. */
export const GATE_KEYS = ['stage', 'needs', 'approval', 'timeout'];
/**
 * `approval.approver_groups`: the roles `maintainer` and `admin`, or the name of an approver group an admin
 * keeps (PUT /api/v1/admin/approver-groups/{name}).
 */
export const APPROVER_GROUP = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
export const APPROVER_GROUP_HINT = 'letters, digits, ".", "_" and "-", starting with a letter or digit';
/** Largest `approval.approvers` / `approver_groups` list. */
export const APPROVERS_MAX = 100;

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
  return r.str(e.node, e.path, { pattern: IMAGE, patternHint: IMAGE_HINT }) ?? undefined;
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

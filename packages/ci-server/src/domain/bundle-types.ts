/**
 * Types of a parsed pipeline bundle (spec/pipeline-yaml.md).
 *
 * Keys keep their YAML spelling (`poll_interval`, `expire_in`, `test_reports`) so a parsed document reads
 * like the file it came from. Parsing fills defaults (every optional list or map is present, `on` is
 * `[push]`, `retry` is 0, ...), stringifies scalars where the format wants strings (parameters, variables,
 * matrix values, command words) and turns every duration into integer milliseconds (fields marked `ms`).
 */

import type { ConcurrencySpec } from './concurrency.js';
import type { BundleError } from './yaml-reader.js';

export type { BundleError } from './yaml-reader.js';

export type GitEvent = 'push' | 'pull_request' | 'tag';
export type ArtifactWhen = 'on_success' | 'on_failure' | 'always';
export type UpstreamStatus = 'success' | 'failed' | 'canceled';

export interface ProjectSpec {
  /** `[a-z0-9][a-z0-9-]{0,62}`: the project's address. */
  slug: string;
  name: string;
  description: string | null;
}

export interface GitMaterial {
  url: string;
  /** Defaults to `main`; a leading `refs/heads/` is removed. */
  branch: string;
  /** Webhook events that trigger; defaults to `[push]`, never has duplicates. */
  on: GitEvent[];
  /** ms; polling is off when absent. */
  poll_interval?: number;
  /**
   * gocdnext's request to register the webhook on the host. As in gocdnext on a server without a host app
   * installation, nothing is registered: apply answers a warning saying so (docs/ci-gocdnext.md).
   */
  auto_register_webhook?: boolean;
}

export interface UpstreamMaterial {
  pipeline: string;
  stage: string;
  /** Defaults to `success`. */
  status: UpstreamStatus;
}

export interface CronMaterial {
  expression: string;
}

export type Material = { git: GitMaterial } | { upstream: UpstreamMaterial } | { cron: CronMaterial };

/** Exactly one probe is set. */
export interface ServiceReady {
  tcp?: number;
  http?: string;
  command?: string[];
  /** ms */
  timeout?: number;
}

export type PullPolicy = 'always' | 'if-not-present' | 'never';

export interface ServiceSpec {
  name: string;
  /** Empty for an image service that runs the image's own command. */
  command: string[];
  ready?: ServiceReady;
  /** An OCI image: the service runs as a container on the job's network, reachable by its name. */
  image?: string;
  /** Absent means `if-not-present`. */
  pull?: PullPolicy;
}

export interface ArtifactsSpec {
  paths: string[];
  /** Defaults to `on_success`. */
  when: ArtifactWhen;
  /** ms; kept until the retention policy removes it when absent. */
  expire_in?: number;
}

export interface CacheSpec {
  key: string;
  paths: string[];
}

export interface ApprovalSpec {
  description?: string;
  /** Distinct approvers needed, >= 1, default 1. */
  required: number;
  /** ms; an unanswered gate cancels the run past it. Absent (or `never`): it waits until answered. */
  timeout?: number;
  /** Who may decide: user names or e-mail addresses (any case). With `approver_groups`, either admits. */
  approvers?: string[];
  /** gocdnext's key, mapped to this control plane's roles: `maintainer` (maintainers and admins), `admin`. */
  approver_groups?: string[];
  /** Whether whoever triggered the run may approve its gate (default no); stored only when true. */
  allow_self_approval?: boolean;
  /** gocdnext's pull-request label (lower case) -> approvals needed instead of `required` (gate-quorum.ts). */
  quorum_by_label?: Record<string, number>;
}

/** gocdnext's `when`: the run's trigger event, branch and changed files a pipeline or job is limited to. */
export interface WhenSpec {
  /** push | pull_request | tag | manual | cron | upstream; empty = any. */
  event: string[];
  /** Branch names or globs (`release/*`); empty = any. */
  branch: string[];
  /** Repository-relative globs (`**` crosses directories); empty = any change. */
  paths: string[];
}

/** gocdnext's `needs_artifacts` entry: artifacts of an earlier job downloaded into the workspace first. */
export interface NeededArtifacts {
  from_job: string;
  /** Set: the upstream pipeline run that triggered this run (an upstream material) instead of this run. */
  from_pipeline?: string;
  /** Subset of the artifact paths (prefixes); empty = all of them. */
  paths: string[];
  /** Workspace-relative destination, default `./`. */
  dest: string;
}

/** gocdnext's `outputs` entry: the name the job writes to $GOCDNEXT_OUTPUT_FILE and whether it is masked. */
export interface OutputSpec {
  env: string;
  masked: boolean;
}

/** gocdnext's `id_tokens` entry: the audiences (`aud`) of the job's OIDC token; never empty. */
export interface IdTokenSpec {
  aud: string[];
}

export interface ResourceAmounts {
  /** Kubernetes quantity: `500m`, `2`. */
  cpu?: string;
  /** Kubernetes quantity: `256Mi`, `4Gi`. */
  memory?: string;
}

export interface ResourcesSpec {
  requests?: ResourceAmounts;
  limits?: ResourceAmounts;
}

/**
 * A job. Exactly one of `script` (a build job) and `approval` (a manual gate) is set; a gate carries only
 * `stage`, `needs` and `approval`.
 */
export interface JobSpec {
  stage: string;
  script?: string[];
  approval?: ApprovalSpec;
  /** Jobs of this or an earlier stage that must succeed first. */
  needs: string[];
  variables: Record<string, string>;
  secrets: string[];
  services: string[];
  artifacts?: ArtifactsSpec;
  cache: CacheSpec[];
  test_reports: string[];
  /** Values stringified; absent when the job has no matrix. */
  matrix?: Record<string, string[]>;
  /** ms */
  timeout?: number;
  /** Automatic re-runs of a failed attempt, 0..10. */
  retry: number;
  /** Routing tags; gocdnext's `agent.tags`, `agent.profile` (as `profile:<name>`) and `docker` land here. */
  tags: string[];
  /** An OCI image: the job runs in a container (agents with podman); absent: sandboxed. */
  image?: string;
  /** Image pull policy; absent means `if-not-present`. */
  pull?: PullPolicy;
  /** `none`: the job has no network; absent means the host's (or its container network). */
  network?: 'host' | 'none';
  // gocdnext's dialect (docs/ci-gocdnext.md). Absent unless written, so documents of our own format keep
  // their digest and re-applying them changes nothing.
  /** The plugin reference as written (`uses:`); its settings are in `variables` as PLUGIN_*. */
  uses?: string;
  /** Job-level trigger filter: the job is skipped on runs that do not match. */
  when?: WhenSpec;
  needs_artifacts?: NeededArtifacts[];
  /** Alias -> output declared by the job (written to $GOCDNEXT_OUTPUT_FILE). */
  outputs?: Record<string, OutputSpec>;
  resources?: ResourcesSpec;
  /** Variable name -> a signed OIDC token minted at dispatch for these audiences (gocdnext's `id_tokens`). */
  id_tokens?: Record<string, IdTokenSpec>;
  /** The job needs a Docker-compatible API (routing tag `docker`). */
  docker?: boolean;
}

/** gocdnext's `notifications[].on`: which run outcomes fire the entry. */
export type NotifyOn = 'failure' | 'success' | 'always' | 'canceled';

/** gocdnext's `notifications` entry: a plugin run after the run reached its outcome (domain/notifications.ts). */
export interface NotificationSpec {
  on: NotifyOn;
  /** The plugin reference as written. */
  uses: string;
  /** The image it names (pluginImage). */
  image: string;
  /** `with:` as PLUGIN_* variables. */
  variables: Record<string, string>;
  secrets: string[];
}

export interface PipelineDocument {
  name: string;
  materials: Material[];
  parameters: Record<string, string>;
  variables: Record<string, string>;
  stages: string[];
  services: ServiceSpec[];
  /** Keyed by job name, in declaration order. */
  jobs: Record<string, JobSpec>;
  /** gocdnext's pipeline-level `when`: which trigger events, branches and changed files create runs. */
  when?: WhenSpec;
  /** `concurrency` (domain/concurrency.ts); absent: parallel. */
  concurrency?: ConcurrencySpec;
  /** gocdnext's post-run plugin steps; absent unless written (the digest of other documents is unchanged). */
  notifications?: NotificationSpec[];
}

/** One pipeline of an applied bundle. */
export interface BundlePipeline {
  document: PipelineDocument;
  /**
   * The pipeline's own text: its slice of the bundle (comments kept, re-indented to stand alone) in the
   * JSON variant, the whole file in the multipart variant.
   */
  rawYaml: string;
  /** True when the slice could not stand alone (an alias to an anchor outside it) and was re-serialised. */
  rawReconstructed: boolean;
  /** sha256 hex of the document and raw text: equal digests mean re-applying changes nothing. */
  digest: string;
}

/**
 * An upstream material naming a pipeline that is not in the bundle. Not an error: the service decides
 * whether it names an existing pipeline of the project (see bundle-parse.ts).
 */
export interface ExternalUpstream {
  pipeline: string;
  upstream: string;
  path: string;
}

export interface Bundle {
  project: ProjectSpec;
  pipelines: BundlePipeline[];
  externalUpstreams: ExternalUpstream[];
  /** Every secret name the jobs reference, sorted, unique. */
  secretReferences: string[];
}

export type BundleResult = { ok: true; bundle: Bundle } | { ok: false; errors: BundleError[] };

export type PipelineResult =
  | { ok: true; pipeline: BundlePipeline; externalUpstreams: ExternalUpstream[] }
  | { ok: false; errors: BundleError[] };

// The shape of one job assignment as the agent's executor consumes it, independent of the wire protocol:
// the connection layer maps the protobuf message onto this type. Everything here is already resolved by the
// control plane at dispatch (references `${{ NAME }}`, matrix values, parameters, secrets), except cache key
// templates `{{ hash "file" }}`, which need the checkout and are resolved by the agent.

/** Why the run exists (spec/pipeline-yaml.md, `CI_CAUSE`). */
export type JobCause = 'manual' | 'rerun' | 'run_all' | 'cron' | 'webhook' | 'poll' | 'upstream';

export type ArtifactWhen = 'on_success' | 'on_failure' | 'always';

export interface GitSource {
  /** Any URL git can fetch from: file://, https://, ssh://, a local path. May carry credentials. */
  url: string;
  /** The commit to check out: a full SHA (preferred) or, as a fallback, a branch or tag name. */
  revision: string;
  branch: string;
}

/** Readiness probe of a service; exactly one of `tcp`, `http`, `command` is set (or none: ready once spawned). */
export interface ServiceReadySpec {
  /** A port on 127.0.0.1 that accepts a TCP connection. */
  tcp?: number;
  /** A URL answering GET with a 2xx status. */
  http?: string;
  /** A command (argv, no shell) that exits 0. */
  command?: string[];
  /** How long to wait for readiness; default 30 s. */
  timeoutMs?: number;
}

export type PullPolicy = 'always' | 'if-not-present' | 'never';

export interface ServiceAssignment {
  name: string;
  /** argv; the first word is looked up on PATH. No shell. With an image, empty means the image's own. */
  command: string[];
  ready?: ServiceReadySpec;
  /** An OCI image: the service runs as a container on the job's network, reachable by its name. */
  image?: string;
  /** Default `if-not-present`. */
  pull?: PullPolicy;
}

export interface CacheAssignment {
  /** Resolved key, or a template with `{{ hash "path/in/checkout" }}` parts. */
  key: string;
  /** Paths relative to the checkout (directories are archived recursively). */
  paths: string[];
}

export interface ArtifactsAssignment {
  paths: string[];
  when: ArtifactWhen;
}

/** An artifact of an earlier job (gocdnext's needs_artifacts), downloaded before the job's script. */
export interface NeededArtifactAssignment {
  artifactId: string;
  /** The file's path in the producing job's checkout. */
  path: string;
  /** Checkout-relative directory it lands under (`.` is the checkout). */
  dest: string;
  sizeBytes: number;
  contentSha256: string;
  fromJob: string;
}

export interface JobAssignment {
  jobRunId: string;
  /** 1 for the first attempt; retries and agent-loss re-queues increase it. */
  attempt: number;
  projectSlug: string;
  pipelineName: string;
  pipelineId: string;
  runId: string;
  runCounter: number;
  jobName: string;
  cause: JobCause | string;
  /** Absent when the pipeline has no git material: the job runs in an empty workspace. */
  git?: GitSource;
  /** Shell lines, run in order as one `bash -eo pipefail` script in the checkout. */
  script: string[];
  /** Job environment, already merged by the server: built-ins, variables, parameters, matrix values. */
  env: Record<string, string>;
  /** Secret name → value; exported as environment and masked in every log line. */
  secrets: Record<string, string>;
  services: ServiceAssignment[];
  cache: CacheAssignment[];
  artifacts?: ArtifactsAssignment;
  /** Globs (relative to the checkout) of JUnit XML files. */
  testReports: string[];
  /** The job fails and its processes are killed past this many ms (from the start of the job). */
  timeoutMs?: number;
  /**
   * An OCI image: the job runs in a podman container (its script, or with no script the image's own
   * entrypoint). Absent: the job runs sandboxed, or on the host where the operator opted in.
   */
  image?: string;
  /** Default `if-not-present`. */
  pull?: PullPolicy;
  /** `none`: the job has no network (service containers stay reachable). Default `host`. */
  network?: 'host' | 'none';
  /** Files of earlier jobs put into the checkout before services and the script start. */
  neededArtifacts?: NeededArtifactAssignment[];
  /** Declared outputs, alias → the variable the job writes as KEY=value to $GOCDNEXT_OUTPUT_FILE. */
  outputs?: Record<string, string>;
  /** Values masked in the log besides the secrets (outputs of earlier jobs). */
  logMasks?: string[];
}

/**
 * The built-in environment of spec/pipeline-yaml.md, derived from the assignment. The server sends the same
 * values inside `env`; the agent recomputes them so a job always has them, and `env` (sent later in the
 * merge) wins when both are present.
 */
export function builtinEnv(job: JobAssignment): Record<string, string> {
  return {
    CI: 'true',
    CI_PROJECT_SLUG: job.projectSlug,
    CI_PIPELINE_NAME: job.pipelineName,
    CI_PIPELINE_ID: job.pipelineId,
    CI_RUN_ID: job.runId,
    CI_RUN_COUNTER: String(job.runCounter),
    CI_JOB_NAME: job.jobName,
    CI_CAUSE: String(job.cause),
    CI_COMMIT_SHA: job.git?.revision ?? '',
    CI_COMMIT_BRANCH: job.git?.branch ?? '',
    // Agent additions (not in the format page): where the job runs and which attempt this is.
    CI_JOB_RUN_ID: job.jobRunId,
    CI_JOB_ATTEMPT: String(job.attempt),
  };
}

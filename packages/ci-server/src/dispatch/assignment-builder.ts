// Turns a claimed job run into the JobAssignment message an agent executes: the run's revision and the
// pipeline's git material, the script, the environment (built-ins, variables, parameters, matrix values,
// with `${{ NAME }}` references resolved — see dispatch/job-env.ts), secrets opened from the store (project
// secret, else global), services, caches, artifacts, test reports and the timeout. A job that cannot be
// built (an unknown reference, a missing secret, no repository) gets a one-line reason instead, and the
// dispatcher fails it with that message.
import type { JobAssignmentSchema } from '@app/ci-proto';
import type { SecretBox } from '@app/kit';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { sql } from 'kysely';
import {
  type GitMaterial,
  type JobSpec,
  jobOfRun,
  notifyIndex,
  type PipelineDocument,
} from '../domain/index.js';
import type { IdTokenIssuer } from '../id-tokens/issuer.js';
import { openProjectSecrets } from '../services/secrets.js';
import { globalSecretAad } from '../store/auth-secrets.js';
import type { StoreDb } from '../store/database.js';
import { compiledOnce } from '../store/dispatch-statements.js';
import { isPostgres } from '../store/run-concurrency.js';
import { gocdnextBuiltins } from './gocdnext-env.js';
import { JobReferenceError, Resolver, referencedNames } from './job-env.js';
import { JobInputReader, type JobInputs } from './job-inputs.js';

export type AssignmentMessage = MessageInitShape<typeof JobAssignmentSchema>;

export interface JobContext {
  jobRunId: string;
  runId: string;
  projectId: string;
  projectSlug: string;
  pipelineId: string;
  pipelineName: string;
  jobName: string;
}

export type BuildOutcome =
  | {
      ok: true;
      assignment: AssignmentMessage;
      secretValues: string[];
      context: JobContext;
      tags: string[];
      /** A line for the job's log before it starts (secrets withheld from a fork's run). */
      notice?: string;
    }
  | { ok: false; error: string; context: JobContext | null };

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const DEFINITION_CACHE = 256;

/** The rows an assignment is built from (the caller picks the job runs). */
const selectAssignmentRows = (db: StoreDb) =>
  db
    .selectFrom('job_runs as j')
    .innerJoin('runs as r', 'r.id', 'j.run_id')
    .innerJoin('pipelines as p', 'p.id', 'r.pipeline_id')
    .innerJoin('projects as pr', 'pr.id', 'r.project_id')
    .leftJoin('fork_runs as f', 'f.run_id', 'j.run_id')
    .select([
      'f.secrets_withheld',
      'j.id',
      'j.name',
      'j.matrix',
      'j.attempt',
      'r.id as run_id',
      'r.counter',
      'r.cause',
      'r.git_ref',
      'r.revision',
      'r.trigger_event',
      'r.status as run_status',
      'r.parameters',
      'r.version_id',
      'r.project_id',
      'r.pipeline_id',
      'p.name as pipeline_name',
      'pr.slug as project_slug',
    ]);
type AssignmentRow = Awaited<ReturnType<ReturnType<typeof selectAssignmentRows>['execute']>>[number];
/** PostgreSQL: one text for any number of job runs, compiled once (store/dispatch-statements.ts). */
const assignmentRowsStatement = compiledOnce<AssignmentRow>((db, ids) =>
  selectAssignmentRows(db).where(sql<boolean>`j.id = any(${ids}::varchar[])`),
);

export class AssignmentBuilder {
  /** Pipeline versions are immutable: their parsed definitions are cached by version id. */
  private readonly definitions = new Map<string, PipelineDocument>();
  private readonly inputs: JobInputReader;

  constructor(
    private readonly db: StoreDb,
    private readonly box: SecretBox,
    /** Mints gocdnext's `id_tokens`; absent: a job declaring them fails, naming why. */
    private readonly idTokens?: IdTokenIssuer,
  ) {
    this.inputs = new JobInputReader(db);
  }

  async definition(versionId: string): Promise<PipelineDocument | undefined> {
    const hit = this.definitions.get(versionId);
    if (hit) return hit;
    const row = await this.db
      .selectFrom('pipeline_versions')
      .select('definition')
      .where('id', '=', versionId)
      .executeTakeFirst();
    if (!row) return undefined;
    const doc = JSON.parse(row.definition) as PipelineDocument;
    if (this.definitions.size >= DEFINITION_CACHE) {
      const oldest = this.definitions.keys().next().value;
      if (oldest !== undefined) this.definitions.delete(oldest);
    }
    this.definitions.set(versionId, doc);
    return doc;
  }

  /** The routing tags of a job run's job (empty when it has none or cannot be found). */
  async tagsOf(versionId: string, jobName: string): Promise<string[]> {
    const doc = await this.definition(versionId);
    return (doc && jobOfRun(doc, jobName)?.tags) ?? [];
  }

  private async loadSecrets(projectId: string, names: Set<string>): Promise<Map<string, string>> {
    const wanted = [...names];
    const out = await openProjectSecrets(this.db, this.box, projectId, wanted);
    const missing = wanted.filter((n) => !out.has(n));
    if (missing.length > 0) {
      const rows = await this.db
        .selectFrom('global_secrets')
        .select(['name', 'value_sealed'])
        .where('name', 'in', missing)
        .execute();
      for (const row of rows) out.set(row.name, this.box.open(row.value_sealed, globalSecretAad(row.name)));
    }
    return out;
  }

  private rows(ids: readonly string[]): Promise<AssignmentRow[]> {
    if (isPostgres(this.db)) return assignmentRowsStatement(this.db, ids);
    return selectAssignmentRows(this.db)
      .where('j.id', 'in', [...ids])
      .execute();
  }

  async build(jobRunId: string): Promise<BuildOutcome> {
    return (await this.buildMany([jobRunId])).get(jobRunId)!;
  }

  /** Assignments of several job runs, read in one query (a burst of a matrix). */
  async buildMany(ids: readonly string[]): Promise<Map<string, BuildOutcome>> {
    const out = new Map<string, BuildOutcome>();
    if (ids.length === 0) return out;
    for (const row of await this.rows(ids)) {
      try {
        out.set(row.id, await this.fromRow(row));
      } catch (err) {
        // A sealed secret that no longer opens (CI_SECRET_KEY changed), a database error while reading one.
        const reason = err instanceof Error ? err.message : String(err);
        out.set(row.id, { ok: false, error: `the job could not be prepared: ${reason}`, context: null });
      }
    }
    for (const id of ids)
      if (!out.has(id)) out.set(id, { ok: false, error: `job run ${id} does not exist`, context: null });
    return out;
  }

  private async fromRow(row: Awaited<ReturnType<AssignmentBuilder['rows']>>[number]): Promise<BuildOutcome> {
    const jobRunId = row.id;
    const context: JobContext = {
      jobRunId,
      runId: row.run_id,
      projectId: row.project_id,
      projectSlug: row.project_slug,
      pipelineId: row.pipeline_id,
      pipelineName: row.pipeline_name,
      jobName: row.name,
    };
    const doc = await this.definition(row.version_id);
    // A notification job run (`_notify_<i>`) stands for a plugin job built from the pipeline's entry i.
    const job = doc ? jobOfRun(doc, row.name) : undefined;
    // A build job has a script; a plugin job (gocdnext's `uses`) has only an image, whose own entrypoint runs.
    if (!doc || !job || (!job.script && !job.image))
      return { ok: false, error: `job "${row.name}" is not a build job of its pipeline version`, context };
    // A pipeline without a git material (cron-only or manual maintenance) runs in an empty workspace.
    const git = doc.materials.find((m): m is { git: GitMaterial } => 'git' in m)?.git;
    // gocdnext's needs_artifacts and output references: read from the jobs before this one.
    const inputs = await this.inputs.read(row.run_id, doc, job);
    if (typeof inputs === 'string') return { ok: false, error: inputs, context };
    try {
      return await this.assemble(row, doc, job, inputs, git, context);
    } catch (err) {
      if (err instanceof JobReferenceError) return { ok: false, error: err.message, context };
      throw err;
    }
  }

  private async assemble(
    row: {
      id: string;
      attempt: number;
      matrix: string;
      counter: number;
      cause: string;
      git_ref: string | null;
      revision: string | null;
      trigger_event: string | null;
      run_status: string;
      parameters: string;
      secrets_withheld: number | null;
    },
    doc: PipelineDocument,
    job: JobSpec,
    inputs: JobInputs,
    git: GitMaterial | undefined,
    context: JobContext,
  ): Promise<BuildOutcome> {
    const jobVariables = inputs.variables;
    // Without a git material there is no commit or branch: both stay empty for every trigger kind.
    const ref = git ? (row.git_ref ?? git.branch) : '';
    const sha = git ? (row.revision ?? (FULL_SHA.test(ref) ? ref : '')) : '';
    const branch = git ? (FULL_SHA.test(ref) ? git.branch : ref) : '';
    const parameters = JSON.parse(row.parameters) as Record<string, string>;
    const matrix = JSON.parse(row.matrix) as Record<string, string>;
    const builtins: Record<string, string> = {
      CI: 'true',
      CI_PROJECT_SLUG: context.projectSlug,
      CI_PIPELINE_NAME: context.pipelineName,
      CI_PIPELINE_ID: context.pipelineId,
      CI_RUN_ID: context.runId,
      CI_RUN_COUNTER: String(row.counter),
      CI_JOB_NAME: context.jobName,
      CI_CAUSE: row.cause,
      // Empty until the first checkout resolves the branch; the agent fills in the commit it checked out.
      CI_COMMIT_SHA: sha,
      CI_COMMIT_BRANCH: branch,
      ...gocdnextBuiltins({ projectId: context.projectId, branch, sha, matrix }),
      // A notification job reports on the run's outcome: the variable gocdnext's notifier plugins read.
      ...(notifyIndex(context.jobName) !== null && !Object.hasOwn(doc.jobs, context.jobName)
        ? { CI_PIPELINE_STATUS: row.run_status }
        : {}),
    };
    const layers = {
      builtins,
      pipelineVariables: doc.variables,
      jobVariables,
      parameters,
      matrix,
    };
    const services = doc.services.filter((s) => job.services.includes(s.name));
    const templated = [
      ...Object.values(doc.variables),
      ...Object.values(jobVariables),
      ...Object.values(parameters),
      ...services.flatMap((s) => [...s.command, s.ready?.http ?? '', ...(s.ready?.command ?? [])]),
    ];
    const defined = new Set(
      Object.keys({ ...builtins, ...doc.variables, ...jobVariables, ...parameters, ...matrix }),
    );
    const secretNames = new Set(job.secrets);
    for (const name of referencedNames(templated)) if (!defined.has(name)) secretNames.add(name);
    // A fork's pull request (services/fork-runs.ts) gets no project or global secret: each name the job asks
    // for reads as empty, nothing is exported, and the log says why.
    const withheld = row.secrets_withheld === 1;
    const available = withheld
      ? new Map([...secretNames].map((n) => [n, '']))
      : await this.loadSecrets(context.projectId, secretNames);
    for (const name of job.secrets) {
      if (!available.has(name))
        return {
          ok: false,
          error: `secret ${name} is not defined: add it to project ${context.projectSlug} or as a global secret`,
          context,
        };
    }
    const resolver = new Resolver(layers, available);
    const env = resolver.environment();
    const resolvedServices = services.map((s) => ({
      name: s.name,
      command: s.command.map((w) => resolver.resolve(w, `service ${s.name}`)),
      ready: s.ready
        ? {
            tcp: s.ready.tcp ?? 0,
            http: s.ready.http ? resolver.resolve(s.ready.http, `service ${s.name}`) : '',
            command: (s.ready.command ?? []).map((w) => resolver.resolve(w, `service ${s.name}`)),
            timeoutMs: s.ready.timeout ?? 0,
          }
        : undefined,
      // Only image services carry these (a plain service's message stays as before).
      ...(s.image ? { image: s.image, pull: s.pull ?? '' } : {}),
    }));
    const secrets: Record<string, string> = {};
    if (!withheld)
      for (const name of [...job.secrets, ...resolver.used]) secrets[name] = available.get(name)!;
    // gocdnext's id_tokens: delivered like secrets (exported, masked), and withheld from a fork's run like them.
    const tokenNames = Object.keys(job.id_tokens ?? {});
    if (tokenNames.length > 0 && !withheld) {
      if (!this.idTokens)
        return { ok: false, error: 'id_tokens: this control plane does not issue OIDC tokens', context };
      const facts = {
        ...context,
        runCounter: row.counter,
        cause: row.cause,
        event: row.trigger_event,
        hasGit: git !== undefined,
        ref: branch,
        sha,
        matrix,
      };
      for (const [name, t] of Object.entries(job.id_tokens ?? {}))
        secrets[name] = await this.idTokens.mint(t.aud, facts);
    }
    const assignment: AssignmentMessage = {
      jobRunId: row.id,
      attempt: row.attempt,
      projectSlug: context.projectSlug,
      pipelineName: context.pipelineName,
      pipelineId: context.pipelineId,
      runId: context.runId,
      runCounter: row.counter,
      jobName: context.jobName,
      cause: row.cause,
      git: git ? { url: git.url, revision: sha || ref, branch } : undefined,
      script: job.script ?? [],
      env,
      secrets,
      services: resolvedServices,
      cache: job.cache.map((c) => ({ key: c.key, paths: c.paths })),
      artifacts: job.artifacts ? { paths: job.artifacts.paths, when: job.artifacts.when } : undefined,
      testReports: job.test_reports,
      timeoutMs: BigInt(job.timeout ?? 0),
      ...(job.image ? { image: job.image, pull: job.pull ?? '' } : {}),
      ...(job.network ? { network: job.network } : {}),
      neededArtifacts: inputs.neededArtifacts,
      outputs: Object.fromEntries(Object.entries(job.outputs ?? {}).map(([alias, o]) => [alias, o.env])),
      logMasks: inputs.masks,
    };
    const held = [...secretNames, ...(withheld ? tokenNames : [])];
    const notice =
      withheld && held.length > 0
        ? `[ci] secrets withheld (${held.join(', ')}): this run builds a pull request from a fork`
        : undefined;
    const secretValues = [...Object.values(secrets), ...inputs.masks];
    return { ok: true, assignment, secretValues, context, tags: job.tags, notice };
  }
}

// TypeBox schemas of the core API's requests and responses (decisions.md shapes). They validate input,
// serialise output (fields not listed never leave the server) and generate the OpenAPI description.
import { type TSchema, Type } from 'typebox';
import { UUID_PATTERN } from '../store/ids.js';

const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/**
 * A nullable string or integer as a JSON Schema type list: the serialiser writes it directly, where an
 * `anyOf` would make it validate every value against each branch (a measurable cost over a page of runs).
 */
const orNull = <T extends string | number>(
  type: 'string' | 'integer',
  options: Record<string, unknown> = {},
) => Type.Unsafe<T | null>({ type: [type, 'null'], ...options });
const timestamp = Type.String({ format: 'date-time' });
const maybeTimestamp = orNull<string>('string', { format: 'date-time' });

export const Uuid = Type.String({ format: 'uuid', pattern: UUID_PATTERN, description: 'a UUID' });
export const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'a project slug' });

export const ErrorBody = Type.Object(
  { error: Type.String() },
  { description: 'An error a person can act on.' },
);

export const RUN_STATUSES = ['queued', 'running', 'success', 'failed', 'canceled'] as const;
export const RunStatus = Type.Enum([...RUN_STATUSES]);
const StageStatus = Type.String({
  description: 'created, running, success, failed, canceled or skipped',
});
const JobStatus = Type.String({
  description: 'created, queued, running, awaiting_approval, success, failed, canceled or skipped',
});
const Cause = Type.String({ description: 'manual, rerun, run_all, cron, webhook, poll or upstream' });

export const StringMap = Type.Record(Type.String(), Type.String());

export const Project = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  description: orNull<string>('string'),
  created_at: timestamp,
  updated_at: timestamp,
});

export const RunSummary = Type.Object({
  id: Uuid,
  project_slug: Type.String(),
  pipeline_id: Uuid,
  pipeline_name: Type.String(),
  counter: Type.Integer({ minimum: 1, description: 'per pipeline, from 1, consecutive' }),
  status: RunStatus,
  cause: Cause,
  git_ref: orNull<string>('string'),
  revision: orNull<string>('string'),
  created_at: timestamp,
  started_at: maybeTimestamp,
  finished_at: maybeTimestamp,
  waiting: Type.Union(
    [
      Type.Object({
        reason: Type.Union(
          [Type.Literal('concurrency'), Type.Literal('fork_approval'), Type.Literal('approval')],
          {
            description:
              'concurrency: held back by a serial concurrency group until run_id finishes (the run is queued and ' +
              'has not started); fork_approval: a pull request from a fork waits for a maintainer ' +
              '(POST /api/v1/runs/{id}/approve); approval: nothing runs and a manual gate (job) awaits approval',
          },
        ),
        message: Type.String({
          description: 'the same in one sentence, e.g. "waits for run #12 to finish (concurrency: serial)"',
        }),
        run_id: orNull<string>('string', { description: 'concurrency: the run it waits for' }),
        job: orNull<string>('string', { description: 'approval: the gate waiting' }),
      }),
      Type.Null(),
    ],
    {
      description:
        'why an unfinished run is not doing anything; null when it is not waiting (a queued run with no ' +
        'reason waits for an agent)',
    },
  ),
  superseded_by: Type.Union(
    [Type.Object({ run_id: Uuid, counter: Type.Integer(), pipeline_name: Type.String() }), Type.Null()],
    { description: 'the newer run that canceled this one under concurrency: cancel-superseded' },
  ),
});

export const Material = Type.Object(
  {
    kind: Type.String({ description: 'git, upstream or cron' }),
    fingerprint: Type.String({ description: 'sha256 of what the material watches' }),
  },
  {
    additionalProperties: true,
    description: 'The material as in the YAML (`{git: {...}}` …) plus kind and fingerprint',
  },
);

export const ProjectDetail = Type.Object({
  ...Project.properties,
  pipelines: Type.Array(
    Type.Object({
      id: Uuid,
      name: Type.String(),
      stages: Type.Array(Type.String()),
      parameters: Type.Record(Type.String(), Type.String(), {
        description:
          "the pipeline's declared parameters with their defaults (a trigger's parameters override them)",
      }),
      materials: Type.Array(Material),
      jobs: Type.Array(
        Type.Object({
          name: Type.String(),
          stage: Type.String(),
          kind: Type.Union([Type.Literal('script'), Type.Literal('gate'), Type.Literal('plugin')], {
            description: 'script: runs commands; gate: a manual approval; plugin: `uses` an image',
          }),
          needs: Type.Array(Type.String()),
          image: orNull<string>('string', { description: 'the container image (or the plugin `uses`)' }),
          matrix: Type.Integer({ minimum: 0, description: 'how many matrix cells (0: no matrix)' }),
        }),
        { description: "the pipeline's jobs in declaration order (a summary; the YAML route has the text)" },
      ),
      when: Type.Union(
        [
          Type.Object({
            event: Type.Array(Type.String()),
            branch: Type.Array(Type.String()),
            paths: Type.Array(Type.String()),
          }),
          Type.Null(),
        ],
        { description: "gocdnext's pipeline `when` (empty lists: any); null when the pipeline has none" },
      ),
      concurrency: Type.Union(
        [
          Type.Object({
            mode: Type.String({ description: 'serial or cancel-superseded' }),
            group: orNull<string>('string', { description: 'a group shared with other pipelines' }),
          }),
          Type.Null(),
        ],
        { description: 'null: runs of the pipeline go in parallel' },
      ),
      latest_run: nullable(RunSummary),
    }),
  ),
  recent_runs: Type.Array(RunSummary, { description: 'the 20 newest runs of the project' }),
});

export const LogLine = Type.Object({
  job_run_id: Uuid,
  seq: Type.Integer(),
  stream: Type.String({ description: 'stdout or stderr' }),
  at: timestamp,
  text: Type.String(),
});

export const JobRunView = Type.Object({
  id: Uuid,
  name: Type.String(),
  status: JobStatus,
  matrix: StringMap,
  agent: orNull<string>('string'),
  engine: orNull<string>('string', {
    description:
      'the engine that ran the attempt: podman (a container), sandbox (bubblewrap) or host (no isolation, ' +
      'on an agent whose operator opted in); null before the job started or from an agent that predates engines',
  }),
  attempt: Type.Integer({ minimum: 1 }),
  exit_code: orNull<number>('integer'),
  failure_reason: orNull<string>('string', {
    description:
      'why this attempt failed or was canceled, in one line (script exit code, timeout, agent lost with the ' +
      'time since it was last heard, could not start, rejected or expired gate, canceled); null otherwise',
  }),
  started_at: maybeTimestamp,
  finished_at: maybeTimestamp,
  needs: Type.Array(Type.String(), { description: 'names of the jobs this one waits for' }),
  gate: Type.Union(
    [
      Type.Object({
        description: orNull<string>('string'),
        required: Type.Integer({ minimum: 1, description: 'distinct approvals needed' }),
        approvals: Type.Integer({ minimum: 0, description: 'distinct people who approved so far' }),
        decisions: Type.Array(
          Type.Object({
            decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
            actor: Type.String(),
            comment: orNull<string>('string'),
            at: timestamp,
          }),
          { description: 'every decision on this attempt, oldest first' },
        ),
        approvers: Type.Array(Type.String(), {
          description: 'user names or e-mail addresses that may decide (approval.approvers)',
        }),
        approver_groups: Type.Array(Type.String(), {
          description:
            'roles (maintainer, admin) or approver groups (/api/v1/admin/approver-groups) that may decide (approval.approver_groups); both lists empty: any maintainer or admin',
        }),
        allow_self_approval: Type.Boolean({
          description: 'whether whoever triggered the run may approve (approval.allow_self_approval)',
        }),
      }),
      Type.Null(),
    ],
    { description: 'a manual gate: its description, approvals needed and received, who decided and why' },
  ),
  logs: Type.Array(LogLine, { description: 'the last N lines of this attempt, oldest first' }),
});

export const RunDetail = Type.Object({
  ...RunSummary.properties,
  parameters: StringMap,
  triggered_by: Type.String(),
  fork: Type.Union(
    [
      Type.Object({
        head_repository: orNull<string>('string', { description: 'the fork the code comes from' }),
        author: orNull<string>('string', { description: 'who opened the pull request' }),
        reason: Type.String({ description: 'why the run waits or runs without secrets, in one sentence' }),
        awaiting_approval: Type.Boolean({
          description: 'the run waits for a maintainer: POST /api/v1/runs/{id}/approve',
        }),
        secrets_withheld: Type.Boolean({ description: 'its jobs get no project or global secret' }),
        approved_by: orNull<string>('string'),
        approved_at: maybeTimestamp,
        comment: orNull<string>('string', { description: "the approver's comment" }),
      }),
      Type.Null(),
    ],
    { description: 'a run of a pull request from a fork (null for every other run)' },
  ),
  pr_labels: Type.Array(Type.String(), {
    description:
      "the labels of the pull request the run builds, lower case, as its webhook gave them (a gate's approval.quorum_by_label reads them); empty for other runs",
  }),
  definition_error: orNull<string>('string', {
    description:
      "pipelines as code: the repository's definition at the run's commit did not apply, and why (the run " +
      'follows the last good definition); null for every other run',
  }),
  stages: Type.Array(
    Type.Object({
      name: Type.String(),
      status: StageStatus,
      jobs: Type.Array(JobRunView, { description: 'every attempt of every job run, in stage order' }),
    }),
  ),
});

export const SlugParams = Type.Object({ slug: Slug });
export const IdParams = Type.Object({ id: Uuid });

/** Responses every route may give besides its success. */
export const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBody])) as Record<number, typeof ErrorBody>;

export const NoContent = Type.Unsafe<undefined>({ description: 'No content' });

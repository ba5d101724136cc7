/**
 * JSON Schema (draft 2020-12) of a pipeline bundle, published at `GET /api/v1/schema/pipeline-bundle.json`
 * for editors and linters. `$defs.pipeline` is the single-file form (the multipart variant's files).
 *
 * It mirrors the parser (bundle-parse.ts): the same keys (a test compares every object's properties with
 * `BUNDLE_KEYS`), enums, patterns and bounds. What a schema cannot say is left to the parser: stages named
 * by jobs exist, `needs` point backwards without cycles, services named by jobs exist, pipeline names are
 * unique, and cron fields are in range.
 */

import {
  GOCDNEXT_DEFS,
  GOCDNEXT_ID_TOKENS,
  GOCDNEXT_JOB_PROPERTIES,
  refusedProperties,
} from './bundle-schema-gocdnext.js';

const name = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  pattern: '^(?!\\s)[^\\u0000-\\u001f\\u007f-\\u009f]*(?<!\\s)$',
};
const envName = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 200 };
/** A list item: numbers and booleans are taken as written; strings must not be empty. */
const item = { anyOf: [{ type: 'string', minLength: 1 }, { type: ['number', 'boolean'] }] };
/** A value of a variable, parameter or matrix entry ("" allowed). */
const value = { type: ['string', 'number', 'boolean'] };
const stringList = { type: 'array', items: item };
const nonEmptyStringList = { type: 'array', items: item, minItems: 1 };
const image = { type: 'string', pattern: '^[^\\s-][^\\s]{0,511}$' };
// Woodpecker's boolean spelling and podman's `missing` are accepted and stored as the enum.
const pull = { oneOf: [{ enum: ['always', 'if-not-present', 'never', 'missing'] }, { type: 'boolean' }] };
const envMap = { type: 'object', propertyNames: envName, additionalProperties: value };
const ref = (def: string) => ({ $ref: `#/$defs/${def}` });

const jobProperties = {
  stage: name,
  script: { oneOf: [{ type: 'string', minLength: 1 }, nonEmptyStringList] },
  needs: { type: 'array', items: name },
  variables: envMap,
  secrets: { type: 'array', items: envName },
  services: stringList,
  artifacts: ref('artifacts'),
  cache: { type: 'array', items: ref('cache') },
  test_reports: stringList,
  matrix: {
    type: 'object',
    minProperties: 1,
    propertyNames: envName,
    additionalProperties: { type: 'array', items: value, minItems: 1, uniqueItems: true },
  },
  timeout: ref('duration'),
  retry: { type: 'integer', minimum: 0, maximum: 10, default: 0 },
  tags: stringList,
  approval: ref('approval'),
  ...GOCDNEXT_JOB_PROPERTIES,
  pull,
  network: { enum: ['host', 'none'], default: 'host' },
  id_tokens: GOCDNEXT_ID_TOKENS,
  ...refusedProperties('job'),
};

export const PIPELINE_BUNDLE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Pipeline bundle',
  description:
    'A project and its pipelines, as applied with POST /api/v1/projects/apply (see pipeline-yaml.md).',
  type: 'object',
  required: ['project', 'pipelines'],
  additionalProperties: false,
  properties: {
    project: ref('project'),
    // A file of the multipart variant may leave out `name` (its file name is used); a bundle may not.
    pipelines: { type: 'array', items: { allOf: [ref('pipeline'), { type: 'object', required: ['name'] }] } },
  },
  $defs: {
    duration: {
      type: 'string',
      description: 'Integer parts with units d, h, m, s, ms in that order, e.g. 30s, 5m, 72h, 7d, 1h30m.',
      pattern: '^(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?(\\d+s)?(\\d+ms)?$',
    },
    name,
    envName,
    project: {
      type: 'object',
      required: ['slug', 'name'],
      additionalProperties: false,
      properties: {
        slug: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
        name,
        description: { type: 'string' },
      },
    },
    pipeline: {
      type: 'object',
      required: ['jobs'],
      additionalProperties: false,
      properties: {
        name,
        materials: { type: 'array', items: ref('material') },
        parameters: envMap,
        variables: envMap,
        stages: { type: 'array', items: name, minItems: 1, uniqueItems: true },
        services: { type: 'array', items: ref('service') },
        jobs: {
          type: 'object',
          minProperties: 1,
          propertyNames: name,
          // A name starting with "." is a template: only extended, never run, so nothing is required of it.
          patternProperties: { '^\\.': ref('jobTemplate') },
          additionalProperties: ref('job'),
        },
        when: ref('when'),
        concurrency: {
          description:
            'parallel (default): runs start at once; serial: one run at a time, newer runs wait queued; ' +
            'cancel-superseded: a newer run cancels older queued or running runs of the same git ref. ' +
            'The object form names a group shared by pipelines of the project',
          oneOf: [
            { enum: ['parallel', 'serial', 'cancel-superseded'] },
            {
              type: 'object',
              additionalProperties: false,
              properties: {
                group: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$' },
                mode: { enum: ['parallel', 'serial', 'cancel-superseded'], default: 'serial' },
              },
            },
          ],
        },
        notifications: {
          type: 'array',
          items: ref('notification'),
          description: "gocdnext's post-run plugin steps, run once the run reached its outcome",
        },
        ...refusedProperties('pipeline'),
      },
    },
    material: {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      additionalProperties: false,
      properties: {
        git: ref('gitMaterial'),
        upstream: ref('upstreamMaterial'),
        cron: ref('cronMaterial'),
        manual: { type: 'boolean', description: 'true: only manual runs (when.event [manual])' },
      },
    },
    gitMaterial: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 2048 },
        branch: { type: 'string', minLength: 1, maxLength: 255, default: 'main' },
        on: {
          oneOf: [
            { type: 'array', items: { enum: ['push', 'pull_request', 'tag'] } },
            { enum: ['push', 'pull_request', 'tag'] },
          ],
          default: ['push'],
        },
        poll_interval: ref('duration'),
        auto_register_webhook: {
          type: 'boolean',
          description:
            "gocdnext's webhook registration: nothing is registered here (no host app); apply warns, add the webhook in the repository settings",
        },
        ...refusedProperties('git'),
      },
    },
    upstreamMaterial: {
      type: 'object',
      required: ['pipeline', 'stage'],
      additionalProperties: false,
      properties: {
        pipeline: name,
        stage: name,
        status: { enum: ['success', 'failed', 'canceled'], default: 'success' },
      },
    },
    cronMaterial: {
      type: 'object',
      required: ['expression'],
      additionalProperties: false,
      properties: {
        expression: {
          type: 'string',
          pattern: '^\\s*(@(hourly|daily|weekly|monthly|yearly|annually)|\\S+(\\s+\\S+){4})\\s*$',
        },
      },
    },
    service: {
      type: 'object',
      required: ['name'],
      anyOf: [{ required: ['command'] }, { required: ['image'] }],
      additionalProperties: false,
      properties: {
        name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$' },
        command: nonEmptyStringList,
        ready: ref('serviceReady'),
        image,
        pull,
        ...refusedProperties('service'),
      },
    },
    serviceReady: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      oneOf: [{ required: ['tcp'] }, { required: ['http'] }, { required: ['command'] }],
      properties: {
        tcp: { type: 'integer', minimum: 1, maximum: 65535 },
        http: { type: 'string', pattern: '^https?://\\S+$' },
        command: nonEmptyStringList,
        timeout: ref('duration'),
      },
    },
    job: {
      type: 'object',
      additionalProperties: false,
      // A build job has a script, a plugin job uses (or image + settings), a manual gate has an approval and
      // nothing but stage and needs. A job that extends another may inherit any of them. `stage` is required
      // when the pipeline lists its stages (the parser checks; a jobs-only document infers them).
      anyOf: [
        { required: ['extends'] },
        {
          oneOf: [
            { required: ['script'], not: { anyOf: [{ required: ['approval'] }, { required: ['uses'] }] } },
            { required: ['approval'], propertyNames: { enum: ['stage', 'needs', 'approval', 'timeout'] } },
            { required: ['uses'], not: { anyOf: [{ required: ['script'] }, { required: ['image'] }] } },
            {
              required: ['image', 'settings'],
              not: { anyOf: [{ required: ['script'] }, { required: ['uses'] }] },
            },
          ],
        },
      ],
      properties: jobProperties,
    },
    jobTemplate: { type: 'object', additionalProperties: false, properties: jobProperties },
    artifacts: {
      type: 'object',
      anyOf: [{ required: ['paths'] }, { required: ['optional'] }],
      additionalProperties: false,
      properties: {
        paths: nonEmptyStringList,
        when: { enum: ['on_success', 'on_failure', 'always'], default: 'on_success' },
        expire_in: ref('duration'),
        optional: { ...nonEmptyStringList, description: 'published when present (merged into paths)' },
      },
    },
    cache: {
      type: 'object',
      required: ['key', 'paths'],
      additionalProperties: false,
      properties: { key: { type: 'string', minLength: 1, maxLength: 512 }, paths: nonEmptyStringList },
    },
    approval: {
      type: 'object',
      additionalProperties: false,
      properties: {
        description: { type: 'string' },
        required: { type: 'integer', minimum: 1, maximum: 100, default: 1 },
        timeout: {
          description:
            "an unanswered gate cancels the run past it; `never` or `off` (gocdnext): it waits until answered. gocdnext writes it as the job's `timeout`",
          anyOf: [ref('duration'), { enum: ['never', 'off'] }],
        },
        approvers: {
          description: 'who may approve or reject: user names or e-mail addresses (any case)',
          anyOf: [
            { type: 'string', minLength: 1, maxLength: 320 },
            { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 320 } },
          ],
        },
        approver_groups: {
          description:
            'roles maintainer (maintainers and admins) or admin, or approver groups an admin keeps (PUT /api/v1/admin/approver-groups/{name}); union with approvers',
          anyOf: [
            { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$' },
            {
              type: 'array',
              maxItems: 100,
              items: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$' },
            },
          ],
        },
        allow_self_approval: {
          type: 'boolean',
          default: false,
          description: 'whether whoever triggered the run may approve this gate',
        },
        quorum_by_label: {
          type: 'object',
          maxProperties: 16,
          propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9._/-]*$' },
          additionalProperties: { type: 'integer', minimum: 1, maximum: 100 },
          description:
            "pull-request label -> approvals this gate needs instead of `required` in a run of a pull request carrying it (the largest of the run's labels wins)",
        },
        ...refusedProperties('approval'),
      },
    },
    ...GOCDNEXT_DEFS,
  },
} as const;

/** Where each `BUNDLE_KEYS` entry lives in the schema (used by the consistency test). */
export const SCHEMA_OBJECT_OF_KEYS = {
  bundle: '',
  project: 'project',
  pipeline: 'pipeline',
  material: 'material',
  git: 'gitMaterial',
  upstream: 'upstreamMaterial',
  cron: 'cronMaterial',
  service: 'service',
  ready: 'serviceReady',
  job: 'job',
  artifacts: 'artifacts',
  cache: 'cache',
  approval: 'approval',
  when: 'when',
  parallel: 'parallel',
  neededArtifacts: 'neededArtifacts',
  output: 'output',
  resources: 'resources',
  resourceAmounts: 'resourceAmounts',
  agent: 'agent',
  idToken: 'idToken',
  notification: 'notification',
} as const;

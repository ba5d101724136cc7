/**
 * JSON Schema (draft 2020-12) of a pipeline bundle, published at `GET /api/v1/schema/pipeline-bundle.json`
 * for editors and linters. `$defs.pipeline` is the single-file form (the multipart variant's files).
 *
 * It mirrors the parser (bundle-parse.ts): the same keys (a test compares every object's properties with
 * `BUNDLE_KEYS`), enums, patterns and bounds. What a schema cannot say is left to the parser: stages named
 * by jobs exist, `needs` point backwards without cycles, services named by jobs exist, pipeline names are
 * unique, and cron fields are in range.
 */

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
const image = { type: 'string', pattern: '^[^\\s]{1,512}$' };
// Woodpecker's boolean spelling and podman's `missing` are accepted and stored as the enum.
const pull = { oneOf: [{ enum: ['always', 'if-not-present', 'never', 'missing'] }, { type: 'boolean' }] };
const envMap = { type: 'object', propertyNames: envName, additionalProperties: value };
const ref = (def: string) => ({ $ref: `#/$defs/${def}` });

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
    pipelines: { type: 'array', items: ref('pipeline') },
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
      required: ['name', 'stages', 'jobs'],
      additionalProperties: false,
      properties: {
        name,
        materials: { type: 'array', items: ref('material') },
        parameters: envMap,
        variables: envMap,
        stages: { type: 'array', items: name, minItems: 1, uniqueItems: true },
        services: { type: 'array', items: ref('service') },
        jobs: { type: 'object', minProperties: 1, propertyNames: name, additionalProperties: ref('job') },
      },
    },
    material: {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      additionalProperties: false,
      properties: { git: ref('gitMaterial'), upstream: ref('upstreamMaterial'), cron: ref('cronMaterial') },
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
      required: ['stage'],
      additionalProperties: false,
      // A build job has a script; a manual gate has an approval and nothing but stage and needs.
      oneOf: [
        { required: ['script'], not: { required: ['approval'] } },
        { required: ['approval'], propertyNames: { enum: ['stage', 'needs', 'approval'] } },
      ],
      properties: {
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
        image,
        pull,
        network: { enum: ['host', 'none'], default: 'host' },
      },
    },
    artifacts: {
      type: 'object',
      required: ['paths'],
      additionalProperties: false,
      properties: {
        paths: nonEmptyStringList,
        when: { enum: ['on_success', 'on_failure', 'always'], default: 'on_success' },
        expire_in: ref('duration'),
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
        timeout: ref('duration'),
      },
    },
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
} as const;

/**
 * The JSON Schema pieces of gocdnext's dialect (spec/pipeline-yaml.md, "gocdnext's dialect"), merged into
 * bundle-schema.ts. Keys this control plane refuses are listed too, as properties no value satisfies, with
 * the refusal as their description: an editor then flags them with the reason the parser gives.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: descriptions show the `${{ … }}` reference syntax.
import { BUNDLE_KEYS, REFUSED_KEYS } from './bundle-rules.js';

const envName = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 200 };
const item = { anyOf: [{ type: 'string', minLength: 1 }, { type: ['number', 'boolean'] }] };
const value = { type: ['string', 'number', 'boolean'] };
const ref = (def: string) => ({ $ref: `#/$defs/${def}` });
const listOrOne = (items: object) => ({ oneOf: [{ type: 'array', items }, items] });

/** Refused keys of one object, as schema properties that nothing satisfies (keys the parser accepts skipped). */
export function refusedProperties(kind: keyof typeof BUNDLE_KEYS): Record<string, object> {
  const allowed = BUNDLE_KEYS[kind] as readonly string[];
  const out: Record<string, object> = {};
  for (const [key, why] of Object.entries(REFUSED_KEYS[kind] ?? {}))
    if (!allowed.includes(key)) out[key] = { description: `Not supported: ${why}.`, not: {} };
  return out;
}

const events = { enum: ['push', 'pull_request', 'tag', 'manual', 'cron', 'upstream'] };
const glob = { type: 'string', minLength: 1, pattern: '^(?!/)(?!.*(^|/)\\.\\.(/|$))' };
const amounts = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cpu: {
      type: ['string', 'number'],
      pattern: '^(\\d+(\\.\\d+)?|\\d+m)$',
      description: 'cores ("2", "0.5") or millicores ("500m")',
    },
    memory: {
      type: 'string',
      pattern: '^\\d+(\\.\\d+)?(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?$',
      description: 'e.g. 256Mi, 4Gi',
    },
  },
};

/** Properties gocdnext adds to a job, in BUNDLE_KEYS order. */
export const GOCDNEXT_JOB_PROPERTIES = {
  image: {
    type: 'string',
    pattern: '^\\S+$',
    maxLength: 512,
    description: 'container image the job runs in',
  },
  uses: {
    type: 'string',
    pattern: '^\\S+$',
    maxLength: 512,
    description:
      'a plugin: <image>@<tag>, or gocdnext/<name>@<tag> for ghcr.io/klinux/gocdnext-plugin-<name>:<tag>',
  },
  with: {
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    description: 'plugin settings, passed as PLUGIN_<NAME> environment',
  },
  settings: {
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    description: "gocdnext's older spelling of with, next to image",
  },
  extends: {
    type: 'string',
    minLength: 1,
    description: 'another job (often a hidden ".name" template) whose keys this job inherits',
  },
  when: ref('when'),
  parallel: ref('parallel'),
  needs_artifacts: { type: 'array', items: ref('neededArtifacts') },
  outputs: {
    type: 'object',
    maxProperties: 64,
    propertyNames: { pattern: '^[a-z][a-zA-Z0-9_-]*$' },
    additionalProperties: { oneOf: [envName, ref('output')] },
    description:
      'alias -> the variable the job writes as KEY=value to $GOCDNEXT_OUTPUT_FILE; read downstream as ${{ needs.<job>.outputs.<alias> }}',
  },
  resources: ref('resources'),
  agent: ref('agent'),
  docker: {
    type: 'boolean',
    description: 'the job needs a Docker-compatible API: only agents tagged "docker" take it',
  },
};

/** `id_tokens`: variable name -> {aud}; the job's OIDC tokens, minted at dispatch. */
export const GOCDNEXT_ID_TOKENS = {
  type: 'object',
  maxProperties: 16,
  propertyNames: { pattern: '^(?!CI_|GOCDNEXT_)[A-Za-z_][A-Za-z0-9_]*$' },
  additionalProperties: ref('idToken'),
  description:
    "variable name -> {aud}: a signed OIDC token (RS256, 1 h) for those audiences, minted at dispatch and masked in the log; verify it with the server's /.well-known/openid-configuration",
};

export const GOCDNEXT_DEFS = {
  notification: {
    type: 'object',
    required: ['on', 'uses'],
    additionalProperties: false,
    description: 'a plugin run after the run reached its outcome; it never changes that outcome',
    properties: {
      on: {
        enum: ['failure', 'success', 'always', 'canceled'],
        description: 'the run outcomes that fire it (failed, success, either, canceled)',
      },
      uses: {
        type: 'string',
        pattern: '^\\S+$',
        maxLength: 512,
        description:
          'the plugin: <image>@<tag>, or gocdnext/<name>@<tag> for ghcr.io/klinux/gocdnext-plugin-<name>:<tag>',
      },
      with: {
        type: 'object',
        additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
        description: 'plugin settings, given to it as PLUGIN_<NAME> variables; `${{ NAME }}` reads a secret',
      },
      secrets: { type: 'array', items: envName, description: 'secrets the plugin may read' },
    },
  },
  when: {
    type: 'object',
    additionalProperties: false,
    properties: {
      event: listOrOne(events),
      events: listOrOne(events),
      branch: listOrOne(glob),
      branches: listOrOne(glob),
      paths: listOrOne(glob),
      ...refusedProperties('when'),
    },
  },
  parallel: {
    type: 'object',
    required: ['matrix'],
    additionalProperties: false,
    properties: {
      matrix: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          minProperties: 1,
          propertyNames: envName,
          additionalProperties: { type: 'array', items: value, minItems: 1, uniqueItems: true },
        },
      },
      ...refusedProperties('parallel'),
    },
  },
  neededArtifacts: {
    type: 'object',
    required: ['from_job'],
    additionalProperties: false,
    properties: {
      from_job: { type: 'string', minLength: 1 },
      from_pipeline: { type: 'string', minLength: 1 },
      paths: { type: 'array', items: item },
      dest: { type: 'string', default: './' },
    },
  },
  output: {
    type: 'object',
    required: ['env'],
    additionalProperties: false,
    properties: { env: envName, masked: { type: 'boolean', default: false } },
  },
  resources: {
    type: 'object',
    additionalProperties: false,
    properties: { requests: ref('resourceAmounts'), limits: ref('resourceAmounts') },
  },
  resourceAmounts: amounts,
  idToken: {
    type: 'object',
    required: ['aud'],
    additionalProperties: false,
    properties: {
      aud: {
        description: "the token's audience: what the cloud's trust configuration expects, exactly",
        anyOf: [
          { type: 'string', minLength: 1, maxLength: 1000 },
          {
            type: 'array',
            minItems: 1,
            maxItems: 16,
            items: { type: 'string', minLength: 1, maxLength: 1000 },
          },
        ],
      },
    },
  },
  agent: {
    type: 'object',
    additionalProperties: false,
    properties: {
      profile: {
        type: 'string',
        pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$',
        description: 'routing tag profile:<name>',
      },
      tags: { type: 'array', items: item },
    },
  },
};

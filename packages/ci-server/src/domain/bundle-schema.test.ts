// The published JSON Schema: same keys as the parser, accepts the spec example, rejects what the parser rejects.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUNDLE_KEYS, parseBundle } from './bundle-parse.js';
import { REFUSED_KEYS } from './bundle-rules.js';
import { PIPELINE_BUNDLE_SCHEMA, SCHEMA_OBJECT_OF_KEYS } from './bundle-schema.js';
import { SPEC_BUNDLE_EXAMPLE, SPEC_PIPELINE_EXAMPLE } from './spec-example.fixture.js';

// ajv is the validator Fastify itself uses (a dependency of fastify and @fastify/type-provider-typebox).
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
const validateBundle = ajv.compile(PIPELINE_BUNDLE_SCHEMA as object);
const validatePipeline =
  ajv.getSchema('#/$defs/pipeline') ??
  ajv.compile({ ...PIPELINE_BUNDLE_SCHEMA, $ref: '#/$defs/pipeline' } as object);

type SchemaObject = { properties?: Record<string, unknown>; additionalProperties?: unknown };

describe('the bundle JSON Schema', () => {
  it('is draft 2020-12 and compiles in strict mode', () => {
    expect(PIPELINE_BUNDLE_SCHEMA.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(typeof validateBundle).toBe('function');
  });

  it.each(Object.entries(SCHEMA_OBJECT_OF_KEYS))(
    'object %s allows exactly the keys the parser allows',
    (keys, def) => {
      const schema = (
        def === '' ? PIPELINE_BUNDLE_SCHEMA : PIPELINE_BUNDLE_SCHEMA.$defs[def]
      ) as SchemaObject;
      // Accepted keys first, then gocdnext's refused ones (properties nothing satisfies, with the reason).
      const kind = keys as keyof typeof BUNDLE_KEYS;
      const allowed: readonly string[] = BUNDLE_KEYS[kind];
      const refused = Object.keys(REFUSED_KEYS[kind] ?? {}).filter((k) => !allowed.includes(k));
      expect(Object.keys(schema.properties ?? {})).toEqual([...allowed, ...refused]);
      expect(schema.additionalProperties).toBe(false);
    },
  );

  it('accepts the spec example, as a bundle and as a pipeline file', () => {
    expect(validateBundle(parse(SPEC_BUNDLE_EXAMPLE)), JSON.stringify(validateBundle.errors)).toBe(true);
    expect(validatePipeline(parse(SPEC_PIPELINE_EXAMPLE)), JSON.stringify(validatePipeline.errors)).toBe(
      true,
    );
  });

  const bundle = (job: string) =>
    `project: {slug: shop, name: Shop}\npipelines:\n  - name: p\n    stages: [s]\n    jobs:\n      j: ${job}\n`;

  it.each([
    ['unknown key', '{stage: s, scirpt: [x]}'],
    ['script and approval', '{stage: s, script: [x], approval: {}}'],
    ['neither script nor approval', '{stage: s}'],
    ['gate with tags', '{stage: s, approval: {}, tags: [x]}'],
    ['bad duration', '{stage: s, script: [x], timeout: 30}'],
    ['retry too high', '{stage: s, script: [x], retry: 11}'],
    ['artifacts.when', '{stage: s, script: [x], artifacts: {paths: [d], when: sometimes}}'],
    ['empty matrix values', '{stage: s, script: [x], matrix: {N: []}}'],
    ['secret name', '{stage: s, script: [x], secrets: [1BAD]}'],
    ['approval.required 0', '{stage: s, approval: {required: 0}}'],
    ['approver_groups not a group name', '{stage: s, approval: {approver_groups: ["-deployers"]}}'],
    ['allow_self_approval not a boolean', '{stage: s, approval: {allow_self_approval: yes-please}}'],
    ['approval.timeout neither duration nor never', '{stage: s, approval: {timeout: forever}}'],
  ])('rejects what the parser rejects: %s', (_name, job) => {
    const text = bundle(job);
    expect(parseBundle(text).ok).toBe(false);
    expect(validateBundle(parse(text))).toBe(false);
  });

  it.each([
    ['a gate with needs', '{stage: s, approval: {required: 2, timeout: 1h}, needs: []}'],
    [
      'a gate with approvers (gocdnext keys)',
      '{stage: s, approval: {approvers: [alice, b@x.org], approver_groups: [maintainer, release-approvers], allow_self_approval: true, timeout: never}}',
    ],
    ['one approver as a string', '{stage: s, approval: {approvers: alice, timeout: 24h}}'],
    ['script as one string', '{stage: s, script: make}'],
    [
      'everything a build job has',
      '{stage: s, script: [x], retry: 0, timeout: 1h30m, artifacts: {paths: [d], when: always, expire_in: 7d}}',
    ],
  ])('accepts what the parser accepts: %s', (_name, job) => {
    const text = bundle(job);
    expect(parseBundle(text).ok).toBe(true);
    expect(validateBundle(parse(text)), JSON.stringify(validateBundle.errors)).toBe(true);
  });
});

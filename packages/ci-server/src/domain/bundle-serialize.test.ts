// Serialising a parsed pipeline back to YAML (reconstructed: true) round-trips.
import { describe, expect, it } from 'vitest';
import { parsePipelineDocument } from './bundle-parse.js';
import { serializePipeline } from './bundle-serialize.js';
import { SPEC_PIPELINE_EXAMPLE } from './spec-example.fixture.js';

function parsed(text: string) {
  const result = parsePipelineDocument(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.pipeline.document;
}

describe('serializePipeline', () => {
  it.each([
    ['the spec example', SPEC_PIPELINE_EXAMPLE],
    ['a minimal pipeline', 'name: p\nstages: [s]\njobs: {j: {stage: s, script: [x]}}\n'],
    [
      'webhooks off and odd values',
      'name: p\nmaterials: [{git: {url: u, on: []}}]\nvariables: {A: "", B: "1.10"}\nstages: [s]\njobs: {j: {stage: s, script: ["echo: hi"], matrix: {N: ["20", "true"]}}}\n',
    ],
  ])('round-trips %s', (_name, text) => {
    const doc = parsed(text);
    expect(parsed(serializePipeline(doc))).toEqual(doc);
  });

  it('writes durations canonically and leaves defaults out', () => {
    const out = serializePipeline(
      parsed('name: p\nstages: [s]\njobs: {j: {stage: s, script: [x], timeout: 90m, retry: 0}}\n'),
    );
    expect(out).toBe(
      'name: p\nstages:\n  - s\njobs:\n  j:\n    stage: s\n    script:\n      - x\n    timeout: 1h30m\n',
    );
  });
});

// Bundle, pipeline, material, stage and service validation errors, table-driven.
import { describe, expect, it } from 'vitest';
import { bundleOf, errorsOf, long, pipeline } from './bundle.fixture.js';
import { parseBundle, parsePipelineDocument } from './bundle-parse.js';

// Validation errors of whole bundles, pipelines, materials, stages and services (jobs: job-validation.test.ts).
describe('validation errors', () => {
  it.each([
    ['slug', 'project: {slug: Shop, name: n}\npipelines: []\n', 'project.slug', /not valid/, 1, 17],
    [
      'slug too long',
      `project: {slug: ${'a'.repeat(64)}, name: n}\npipelines: []\n`,
      'project.slug',
      /not valid/,
    ],
    [
      'project name length',
      `project: {slug: s, name: ${long}}\npipelines: []\n`,
      'project.name',
      /201 characters.*at most 200/,
    ],
    ['project missing', 'pipelines: []\n', 'project', /missing required key "project"/, 1, 1],
    [
      'duplicate pipeline names',
      bundleOf(
        '  - {name: a, stages: [s], jobs: {j: {stage: s, script: [x]}}}\n  - {name: a, stages: [s], jobs: {j: {stage: s, script: [x]}}}\n',
      ),
      'pipelines[1].name',
      /"a" is already used by pipelines\[0\]/,
      4,
      12,
    ],
    [
      'upstream stage unknown in bundle',
      bundleOf(
        '  - {name: a, stages: [s], jobs: {j: {stage: s, script: [x]}}}\n  - {name: b, materials: [{upstream: {pipeline: a, stage: nope}}], stages: [s], jobs: {j: {stage: s, script: [x]}}}\n',
      ),
      'pipelines[1].materials[0].upstream.stage',
      /pipeline "a" has no stage "nope"/,
    ],
    [
      'upstream cycle',
      bundleOf(
        '  - {name: a, materials: [{upstream: {pipeline: b, stage: s}}], stages: [s], jobs: {j: {stage: s, script: [x]}}}\n  - {name: b, materials: [{upstream: {pipeline: a, stage: s}}], stages: [s], jobs: {j: {stage: s, script: [x]}}}\n',
      ),
      'pipelines[1].materials[0].upstream.pipeline',
      /cycle: a <- b <- a/,
    ],
    [
      'pipelines not a list',
      'project: {slug: s, name: n}\npipelines: {a: 1}\n',
      'pipelines',
      /must be a list of pipeline documents/,
    ],
    ['YAML syntax', 'project: {slug: s, name: n\npipelines: []\n', '', /^YAML: /],
    [
      'YAML duplicate key',
      'project: {slug: s, name: n}\nproject: {slug: s, name: n}\npipelines: []\n',
      '',
      /YAML: Map keys must be unique/,
      2,
      1,
    ],
    ['empty document', '# nothing\n', '', /empty/],
    [
      'several documents',
      'project: {slug: s, name: n}\npipelines: []\n---\nx: 1\n',
      '',
      /multiple documents/,
    ],
  ])('bundle: %s', (_name, text, path, message, line?: number, column?: number) => {
    const errors = errorsOf(parseBundle(text));
    const error = errors.find((e) => e.path === path && message.test(e.message));
    expect(error, JSON.stringify(errors)).toBeDefined();
    if (line !== undefined) expect(error).toMatchObject({ line, column });
  });

  it.each([
    [
      'pipeline name length',
      `name: ${long}\nstages: [s]\njobs: {a: {stage: s, script: [x]}}\n`,
      'name',
      /at most 200/,
    ],
    [
      'pipeline name not a string',
      'name: [a]\nstages: [s]\njobs: {a: {stage: s, script: [x]}}\n',
      'name',
      /must be a string/,
    ],
    [
      'job name length',
      pipeline(`  ${long}: { stage: build, script: [x] }\n`),
      `jobs.${long}`,
      /at most 200/,
    ],
    [
      'stages empty',
      'name: p\nstages: []\njobs: {a: {stage: s, script: [x]}}\n',
      'stages',
      /at least one stage/,
      2,
      9,
    ],
    [
      'stages duplicate',
      'name: p\nstages: [a, b, a]\njobs: {a: {stage: a, script: [x]}}\n',
      'stages[2]',
      /listed twice/,
      2,
      16,
    ],
    ['variable name', pipeline('', 'variables: { 1X: y }\n'), 'variables["1X"]', /not a valid name/],
    [
      'variable without value',
      pipeline('', 'variables:\n  A:\n'),
      'variables.A',
      /write "" for an empty value/,
    ],
    [
      'poll_interval',
      pipeline('', 'materials: [{git: {url: u, poll_interval: 1h1h}}]\n'),
      'materials[0].git.poll_interval',
      /not a duration/,
    ],
    [
      'service twice',
      pipeline('', 'services:\n  - { name: db, command: [db] }\n  - { name: db, command: [db] }\n'),
      'services[1]',
      /declared twice/,
    ],
    [
      'service without command',
      pipeline('', 'services:\n  - { name: db }\n'),
      'services[0].command',
      /missing required key/,
    ],
    [
      'ready with two probes',
      pipeline('', 'services:\n  - { name: db, command: [db], ready: { tcp: 1, http: "http://x/" } }\n'),
      'services[0].ready',
      /exactly one of tcp, http, command \(found 2\)/,
    ],
    [
      'ready port',
      pipeline('', 'services:\n  - { name: db, command: [db], ready: { tcp: 70000 } }\n'),
      'services[0].ready.tcp',
      /1 to 65535/,
    ],
    [
      'ready http',
      pipeline('', 'services:\n  - { name: db, command: [db], ready: { http: "ftp://x" } }\n'),
      'services[0].ready.http',
      /http:\/\/ or https:\/\//,
    ],
    [
      'cron out of range',
      pipeline('', 'materials: [{cron: {expression: "61 * * * *"}}]\n'),
      'materials[0].cron.expression',
      /minute/,
    ],
    [
      'cron with seconds',
      pipeline('', 'materials: [{cron: {expression: "0 0 3 * * *"}}]\n'),
      'materials[0].cron.expression',
      /6 fields; expected 5/,
    ],
    [
      'cron nickname',
      pipeline('', 'materials: [{cron: {expression: "@midnight"}}]\n'),
      'materials[0].cron.expression',
      /unknown cron nickname/,
    ],
    [
      'on event',
      pipeline('', 'materials: [{git: {url: u, on: [push, merge]}}]\n'),
      'materials[0].git.on[1]',
      /"merge" must be one of push, pull_request, tag/,
      3,
      39,
    ],
    [
      'git without url',
      pipeline('', 'materials: [{git: {branch: main}}]\n'),
      'materials[0].git.url',
      /missing required key "url"/,
    ],
    [
      'material of two kinds',
      pipeline('', 'materials: [{git: {url: u}, cron: {expression: "@daily"}}]\n'),
      'materials[0]',
      /exactly one of git, upstream, cron, manual \(found 2\)/,
    ],
    ['material of no kind', pipeline('', 'materials: [{}]\n'), 'materials[0]', /found 0/],
    [
      'duplicate git material',
      pipeline('', 'materials: [{git: {url: "https://h/o/r"}}, {git: {url: "git@h:o/r.git"}}]\n'),
      'materials[1]',
      /duplicate of materials\[0\]/,
    ],
    [
      'upstream to itself',
      pipeline('', 'materials: [{upstream: {pipeline: p, stage: build}}]\n'),
      'materials[0].upstream.pipeline',
      /own upstream/,
    ],
    [
      'upstream status',
      pipeline('', 'materials: [{upstream: {pipeline: q, stage: s, status: done}}]\n'),
      'materials[0].upstream.status',
      /one of success, failed, canceled/,
    ],
    ['not a mapping', '- a\n- b\n', '', /must be a mapping/, 1, 1],
  ])('pipeline: %s', (_name, text, path, message, line?: number, column?: number) => {
    const errors = errorsOf(parsePipelineDocument(text));
    const error = errors.find((e) => e.path === path && message.test(e.message));
    expect(error, JSON.stringify(errors, null, 1)).toBeDefined();
    if (line !== undefined) expect(error).toMatchObject({ line, column });
  });
});

// gocdnext's dialect in the parser: stored forms, extends and templates, inferred stages, and the errors
// and refusals (each naming the key, its path and line).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { describe, expect, it } from 'vitest';
import { assembleBundle, formatBundleError } from './bundle-parse.js';
import type { PipelineDocument } from './bundle-types.js';

const parse = (text: string, file = 'ci.yaml') =>
  assembleBundle({ slug: 's', name: 's' }, [{ name: file, text }]);
const doc = (text: string): PipelineDocument => {
  const r = parse(text);
  if (!r.ok) throw new Error(r.errors.map(formatBundleError).join('\n'));
  return r.bundle.pipelines[0].document;
};
const errors = (text: string) => {
  const r = parse(text);
  return r.ok ? [] : r.errors.map(formatBundleError);
};

describe("gocdnext's dialect", () => {
  it('stores one form for both spellings', () => {
    const d = doc(`when: {events: [push], branches: [main]}
stages: [test]
jobs:
  t:
    stage: test
    parallel: {matrix: [{OS: [linux, darwin]}, {ARCH: [amd64]}]}
    agent: {profile: gpu, tags: [x86]}
    docker: true
    artifacts: {optional: [cov.xml], paths: [dist/]}
    resources: {requests: {cpu: 500m, memory: 1Gi}, limits: {cpu: 2, memory: 4Gi}}
    script: [make]`);
    expect(d.name).toBe('ci');
    expect(d.when).toEqual({ event: ['push'], branch: ['main'], paths: [] });
    expect(d.jobs.t).toMatchObject({
      matrix: { OS: ['linux', 'darwin'], ARCH: ['amd64'] },
      tags: ['profile:gpu', 'x86', 'docker'],
      docker: true,
      artifacts: { paths: ['dist/', 'cov.xml'], when: 'on_success' },
      resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '4Gi' } },
    });
  });

  it('merges extends chains, drops hidden templates, and names cycles and unknown parents', () => {
    const d = doc(`stages: [b]
jobs:
  .base: {stage: b, image: "golang:1.23", variables: {A: "1", B: "1"}, retry: 2}
  .mid: {extends: .base, variables: {B: "2"}}
  real: {extends: .mid, variables: {C: "3"}, script: [go build]}`);
    expect(Object.keys(d.jobs)).toEqual(['real']);
    expect(d.jobs.real).toMatchObject({
      stage: 'b',
      image: 'golang:1.23',
      retry: 2,
      variables: { A: '1', B: '2', C: '3' },
    });
    expect(
      errors(
        'stages: [b]\njobs:\n  a: {extends: c, stage: b, script: [x]}\n  c: {extends: a, stage: b, script: [x]}',
      ),
    ).toEqual(
      expect.arrayContaining([expect.stringMatching(/jobs\.c\.extends: extends form a cycle: a -> c -> a/)]),
    );
    expect(errors('stages: [b]\njobs:\n  a: {extends: nope, stage: b, script: [x]}')[0]).toMatch(
      /jobs\.a\.extends: extends unknown job "nope" \(ci\.yaml, line 3/,
    );
  });

  it('infers stages so that needs point backwards, or one default stage', () => {
    const d = doc(
      'jobs:\n  deploy: {stage: ship, needs: [build], script: [x]}\n  build: {stage: make, script: [y]}',
    );
    expect(d.stages).toEqual(['make', 'ship']);
    expect(doc('jobs:\n  a: {script: [x]}').stages).toEqual(['default']);
    expect(errors('jobs:\n  a: {stage: s, script: [x]}\n  b: {script: [y]}').join('\n')).toMatch(
      /jobs: no "stages" list, and job\(s\) b name no stage/,
    );
  });

  it('checks plugins, outputs, needs_artifacts and resources', () => {
    const errs = errors(`stages: [a, b]
jobs:
  p: {stage: a, uses: "x/y@v1", script: [z]}
  w: {stage: a, with: {k: v}, script: [z]}
  o: {stage: a, script: [z], outputs: {Bad: X, ok: 1BAD}}
  n: {stage: a, script: [z], needs_artifacts: [{from_job: later}, {from_job: o, dest: ../up}]}
  later: {stage: b, script: [z], artifacts: {paths: [d]}}
  r: {stage: a, script: [z], resources: {requests: {cpu: "3"}, limits: {cpu: "2", memory: lots}}}
  ref: {stage: b, script: [z], variables: {V: "\${{ needs.o.outputs.missing }}"}}`);
    const all = errs.join('\n');
    expect(all).toMatch(/jobs\.p\.script: "uses" and "script" are exclusive/);
    expect(all).toMatch(/jobs\.w\.with: "with" configures a plugin: it needs "uses"/);
    expect(all).toMatch(/jobs\.o\.outputs\.Bad: "Bad" is not a valid output alias/);
    expect(all).toMatch(/jobs\.o\.outputs\.ok: "1BAD" is not a valid variable name/);
    expect(all).toMatch(/jobs\.n\.needs_artifacts\[0\]\.from_job: "later" is not finished when "n" starts/);
    expect(all).toMatch(/jobs\.n\.needs_artifacts\[1\]\.dest: "\.\.\/up" must stay inside the workspace/);
    expect(all).toMatch(
      /jobs\.r\.requests\.cpu: the request 3 is above the limit 2|jobs\.r\.resources\.requests\.cpu: the request 3/,
    );
    expect(all).toMatch(/jobs\.r\.resources\.limits\.memory: "lots" is not valid/);
    expect(all).toMatch(
      /jobs\.ref\.variables\.V: \$\{\{ needs\.o\.outputs\.missing \}\}: job "o" declares no output "missing"/,
    );
  });

  it('refuses the keys it cannot honour, naming each and why', () => {
    const all = errors(`stages: [a]
materials: [{git: {url: "https://x/y.git", secret_ref: TOKEN}}]
when: {status: [success]}
jobs:
  j: {stage: a, script: [x], cluster: prod, rules: [], parallel: {count: 3}}`).join('\n');
    const refused: [string, string][] = [
      ['materials[0].git.secret_ref', 'set the repository credential in the project settings'],
      ['when.status', 'not enforced'],
      ['jobs.j.cluster', 'no deploy-target cluster registry'],
      ['jobs.j.rules', 'rules are not evaluated'],
      ['jobs.j.parallel.count', 'identical parallel copies are not supported'],
    ];
    for (const [key, why] of refused) {
      const line = all
        .split('\n')
        .find((l) => l.startsWith(`${key}: "${key.split('.').pop()}" is not supported: `));
      expect(line, key).toContain(why);
    }
    expect(all).toMatch(/no deploy-target cluster registry/);
  });
});

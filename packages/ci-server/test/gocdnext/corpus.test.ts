// gocdnext's shipped and documented pipelines (test/fixtures/gocdnext, see its README) applied unchanged
// through the real apply route, in gocdnext's CLI body {slug, name, files} and in our {yaml} bundle: each
// either applies, or is refused with a 400 whose message names the key (or the broken part) and why.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CiServer } from '../../src/index.js';
import { bundle, type Client, client, startApiServer } from '../api-helpers.js';

const DIR = join(import.meta.dirname, '../fixtures/gocdnext');
const read = (folder: string) =>
  readdirSync(join(DIR, folder))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(DIR, folder, name), 'utf8') }));
const FULL = read('full');
const FRAGMENTS = read('fragments');

/**
 * What the refusal names, for each document that does not apply. Everything not listed must apply. The
 * first group is written in gocdnext's dialect and refused here on purpose; the second is not valid for
 * gocdnext's own parser either (doc excerpts with a broken shape). The fixtures README gives the count.
 */
const REFUSED: Record<string, RegExp> = {
  'docs-concepts-clusters-9.yaml': /"cluster" is not supported: there is no deploy-target cluster registry/,
  // Not accepted by gocdnext either.
  'docs-concepts-trunk-based-release-16.yaml': /YAML: /,
  'docs-concepts-trunk-based-release-9.yaml': /jobs\.sbom\.needs\[0\]: needs unknown job "cosign-sign"/,
  'docs-pipelines-recipes-dast-1.yaml': /services: must be a list of services/,
  'docs-pipelines-recipes-dast-3.yaml': /jobs\.nuclei\.artifacts: must be a mapping/,
  'docs-pipelines-recipes-dast-4.yaml': /artifacts: must be a mapping/,
  'docs-pipelines-recipes-notifications-1.yaml': /jobs: must be a mapping of job names to jobs/,
  // Its jobs are written `unit: ...` (a scalar, not a job): gocdnext cannot decode them either.
  'docs-pipelines-yaml-reference-1.yaml': /jobs\.unit: must be a mapping/,
  // Jobs-only fragments (gocdnext refuses every one: no `stages`): each refusal names its key.
  'docs-concepts-clusters-1.yaml': /"cluster" is not supported/,
  'docs-concepts-deployments-1.yaml': /"deploy" is not supported: deployment tracking/,
  'docs-concepts-deployments-2.yaml': /"deploy" is not supported/,
  'docs-concepts-environment-freeze-1.yaml': /"environment" is not supported/,
  'docs-concepts-native-deploy-2.yaml': /"deploy" is not supported/,
  'docs-concepts-native-deploy-4.yaml': /"deploy" is not supported/,
  'docs-concepts-security-1.yaml': /jobs\.trivy-fs\.artifacts: must be a mapping/,
  'docs-pipelines-recipes-dast-2.yaml': /artifacts: must be a mapping/,
  'docs-pipelines-recipes-node-3.yaml':
    /services\[0\]\.image: "image" is not supported|needs artifacts of unknown job "bundle"/,
  'docs-pipelines-yaml-reference-15.yaml': /"coverage_report" is not supported/,
  'docs-pipelines-yaml-reference-17.yaml': /services\[0\]\.env: "env" is not supported/,
  'docs-pipelines-yaml-reference-24.yaml': /"deploy" is not supported/,
  'docs-pipelines-yaml-reference-25.yaml': /"cluster" is not supported/,
  'docs-pipelines-yaml-reference-29.yaml': /"strategy" is not supported: use parallel\.matrix/,
  'docs-pipelines-yaml-reference-31.yaml':
    /jobs\.build: a job needs "script" \(a build job\), "uses" \(a plugin\)/,
  'docs-pipelines-yaml-reference-32.yaml': /jobs\.big-test: a job needs "script"/,
  'docs-pipelines-yaml-reference-9.yaml': /"uses" and "image" are exclusive/,
};

/**
 * Full files gocdnext's own parser refuses (read from its code: server/pkg/parser): the 7 broken excerpts
 * above, and trunk-based-release-18, whose gate asks `required: 2` of one approver group — gocdnext counts a
 * group as one approver and refuses the gate as un-passable; here a group has members, so it applies.
 */
const GOCDNEXT_REFUSES = [
  'docs-concepts-trunk-based-release-16.yaml',
  'docs-concepts-trunk-based-release-9.yaml',
  'docs-pipelines-recipes-dast-1.yaml',
  'docs-pipelines-recipes-dast-3.yaml',
  'docs-pipelines-recipes-dast-4.yaml',
  'docs-pipelines-recipes-notifications-1.yaml',
  'docs-pipelines-yaml-reference-1.yaml',
  'docs-concepts-trunk-based-release-18.yaml',
];

let server: CiServer;
let api: Client;
beforeAll(async () => {
  server = await startApiServer('sqlite');
  api = client(server);
});
afterAll(async () => server?.close());

/** Files applied together, as gocdnext's CLI sends a repository's whole .gocdnext/ folder. */
const FOLDER_OF = (name: string) => /^(gocdnext|examples-[a-z-]+?)--/.exec(name)?.[1];

/**
 * Pipelines an upstream material of a doc excerpt names that the excerpt does not hold (the project it
 * was written for has them): a stub with that stage is sent beside it, the excerpt itself is unchanged.
 */
function stubsFor(text: string, present: Set<string>): { name: string; content: string }[] {
  let doc: { materials?: { upstream?: { pipeline?: string; stage?: string } }[] } | null = null;
  try {
    doc = parse(text);
  } catch {
    return [];
  }
  const out: { name: string; content: string }[] = [];
  for (const m of Array.isArray(doc?.materials) ? doc.materials : []) {
    const u = m?.upstream;
    if (!u?.pipeline || !u.stage || present.has(u.pipeline)) continue;
    present.add(u.pipeline);
    out.push({
      name: `stub-${u.pipeline}.yaml`,
      content: `name: ${u.pipeline}\nstages: [${u.stage}]\njobs: {s: {stage: ${u.stage}, script: [true]}}\n`,
    });
  }
  return out;
}

let slugs = 0;
/** gocdnext's CLI body: the file, the other files of its folder, and stubs of missing upstreams. */
function cliApply(file: { name: string; text: string }, all: { name: string; text: string }[]) {
  const folder = FOLDER_OF(file.name);
  const siblings = folder ? all.filter((f) => f.name !== file.name && FOLDER_OF(f.name) === folder) : [];
  const files = [file, ...siblings].map((f) => ({ name: f.name, content: f.text }));
  const present = new Set<string>();
  for (const f of files) {
    const name = /^name:\s*(\S+)/m.exec(f.content)?.[1];
    if (name) present.add(name);
  }
  files.push(...files.flatMap((f) => stubsFor(f.content, present)));
  return api.post('/api/v1/projects/apply', { slug: `g${++slugs}`, name: 'gocdnext corpus', files });
}

function expectOutcome(file: string, res: { status: number; body: { error?: string } }): boolean {
  const refused = REFUSED[file];
  if (!refused) {
    expect(res.status, `${file}: ${JSON.stringify(res.body)}`).toBe(200);
    return true;
  }
  expect(res.status, file).toBe(400);
  expect(res.body.error, file).toMatch(refused);
  return false;
}

describe("gocdnext's full pipelines", () => {
  it('apply through the CLI body {slug, name, files}: 39 of the 40 gocdnext accepts, and one it refuses', async () => {
    let applied = 0;
    const appliedNames: string[] = [];
    for (const file of FULL)
      if (expectOutcome(file.name, await cliApply(file, FULL))) {
        applied++;
        appliedNames.push(file.name);
      }
    expect(FULL.length).toBe(48);
    const accepted = FULL.filter((f) => !GOCDNEXT_REFUSES.includes(f.name)).map((f) => f.name);
    expect(accepted).toHaveLength(40);
    expect(accepted.filter((f) => !appliedNames.includes(f))).toEqual(['docs-concepts-clusters-9.yaml']);
    expect(appliedNames.filter((f) => !accepted.includes(f))).toEqual([
      'docs-concepts-trunk-based-release-18.yaml',
    ]);
    expect(applied).toBe(
      FULL.length - Object.keys(REFUSED).filter((f) => FULL.some((x) => x.name === f)).length,
    );
    expect(applied).toBeGreaterThanOrEqual(40);
  });

  it('apply the same way inside a {yaml} bundle with a wrapping project (documents that carry a name)', async () => {
    for (const file of FULL) {
      const doc = parse(file.text, { prettyErrors: false, logLevel: 'silent' }) as { name?: unknown } | null;
      if (REFUSED[file.name] || typeof doc?.name !== 'string') continue;
      const folder = FOLDER_OF(file.name);
      const docs = [file, ...FULL.filter((f) => f !== file && folder && FOLDER_OF(f.name) === folder)];
      const present = new Set(docs.map((d) => /^name:\s*(\S+)/m.exec(d.text)?.[1] ?? ''));
      const stubs = docs.flatMap((d) => stubsFor(d.text, present)).map((x) => x.content);
      if (docs.some((d) => REFUSED[d.name])) continue;
      const res = await api.apply(bundle(`y${++slugs}`, [...docs.map((d) => d.text), ...stubs]));
      expect(res.status, `${file.name}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('answers a warning for auto_register_webhook: like gocdnext without a host app, nothing is registered', async () => {
    const file = FULL.find((f) => f.name === 'examples-simple--pipeline.yaml')!;
    const res = await cliApply(file, FULL);
    expect(res.status).toBe(200);
    expect((res.body as { warnings?: string[] }).warnings).toEqual([
      expect.stringMatching(
        /materials\[0\]\.git\.auto_register_webhook: no webhook was registered \(this control plane has no host app installation\)/,
      ),
    ]);
  });

  it('a second apply of the same files changes nothing', async () => {
    const folder = FULL.filter((f) => FOLDER_OF(f.name) === 'gocdnext');
    const body = {
      slug: 'again',
      name: 'again',
      files: folder.map((f) => ({ name: f.name, content: f.text })),
    };
    const first = await api.post('/api/v1/projects/apply', body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const before = (await api.get('/api/v1/projects/again')).body;
    expect((await api.post('/api/v1/projects/apply', body)).status).toBe(200);
    expect((await api.get('/api/v1/projects/again')).body).toEqual(before);
  });
});

describe("gocdnext's jobs-only fragments", () => {
  it('apply where the stages can be inferred; the others are refused naming the key', async () => {
    let applied = 0;
    for (const file of FRAGMENTS) if (expectOutcome(file.name, await cliApply(file, FRAGMENTS))) applied++;
    expect(FRAGMENTS.length).toBe(36);
    expect(applied).toBe(19);
  });
});

describe("gocdnext's CLI body", () => {
  it('refuses config_repo and scm_source naming them, and a body with both forms', async () => {
    const files = [{ name: 'a.yaml', content: 'jobs: {a: {script: [x]}}' }];
    const repo = await api.post('/api/v1/projects/apply', { slug: 'z', name: 'z', files, config_repo: 'x' });
    expect(repo.status).toBe(400);
    expect(repo.body.error).toMatch(/"config_repo" is not supported/);
    const scm = await api.post('/api/v1/projects/apply', {
      slug: 'z',
      files,
      scm_source: { provider: 'github' },
    });
    expect(scm.body.error).toMatch(/"scm_source" is not taken by apply: .*config-repo/);
    const both = await api.post('/api/v1/projects/apply', { yaml: 'x', slug: 'z', files });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/either "yaml" or gocdnext's/);
  });

  it('names a pipeline without `name` after its file and its project after the slug when name is left out', async () => {
    const res = await api.post('/api/v1/projects/apply', {
      slug: 'named',
      files: [{ name: '.gocdnext/build.yaml', content: 'jobs: {compile: {script: [make]}}' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const detail = (await api.get('/api/v1/projects/named')).body;
    expect(detail.name).toBe('named');
    expect(detail.pipelines.map((p: { name: string }) => p.name)).toEqual(['build']);
  });
});

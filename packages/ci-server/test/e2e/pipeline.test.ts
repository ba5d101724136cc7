// End to end with real agent processes and local git repositories: a multi-stage pipeline with needs and a
// matrix runs in order, a failing step fails the run with its exit code, artifacts download with the exact
// bytes, JUnit results are aggregated, a secret never reaches a stored or streamed log line, and the SSE
// stream delivers every line once, in order, resumes from Last-Event-ID and closes at the end.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  type Api,
  api,
  atHead,
  type E2eServer,
  makeRepo,
  readStream,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';

let ci: E2eServer;
let client: Api;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  ci = await startServer();
  client = api(ci.base);
  agents.push(
    startAgent(ci.grpcPort, 'pipe-a', { capacity: 2 }),
    startAgent(ci.grpcPort, 'pipe-b', { capacity: 2 }),
  );
  await waitForAgents(ci.server, ['pipe-a', 'pipe-b']);
}, 60_000);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await ci?.server.close();
});

const ms = (t: string) => Date.parse(t);

describe('pipelines run end to end on real agents', () => {
  it('runs stages in order, honours needs and expands the matrix', async () => {
    const repo = makeRepo({ VERSION: '1.2.3\n' });
    const ids = await client.apply('order', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
parameters:
  TARGET: staging
variables:
  GREETING: "hello \${{ TARGET }}"
stages: [build, test]
jobs:
  compile:
    stage: build
    script:
      - cat VERSION
      - echo "greeting=$GREETING commit=$CI_COMMIT_SHA job=$CI_JOB_NAME"
  lint:
    stage: build
    needs: [compile]
    script: [echo linted]
  unit:
    stage: test
    matrix:
      NODE: ["20", "22"]
    script: ['echo "node=$NODE target=$TARGET"']`,
    ]);
    const runId = await client.trigger(ids.build, { parameters: { TARGET: 'prod' } });
    const run = await client.waitRun(runId);
    expect(run.status).toBe('success');
    expect(run.revision).toBe(repo.head);
    const [build, test] = run.stages;
    expect(build.jobs.map((j: any) => [j.name, j.status])).toEqual([
      ['compile', 'success'],
      ['lint', 'success'],
    ]);
    const [compile, lint] = build.jobs;
    expect(ms(lint.started_at)).toBeGreaterThanOrEqual(ms(compile.finished_at));
    const lastBuild = Math.max(...build.jobs.map((j: any) => ms(j.finished_at)));
    expect(test.jobs).toHaveLength(2);
    for (const job of test.jobs) {
      expect(job.status).toBe('success');
      expect(ms(job.started_at)).toBeGreaterThanOrEqual(lastBuild);
      expect(['pipe-a', 'pipe-b']).toContain(job.agent);
      const text = job.logs.map((l: any) => l.text).join('\n');
      expect(text).toContain(`node=${job.matrix.NODE} target=prod`);
    }
    expect(test.jobs.map((j: any) => j.matrix.NODE).sort()).toEqual(['20', '22']);
    const compileText = compile.logs.map((l: any) => l.text).join('\n');
    expect(compileText).toContain('1.2.3');
    expect(compileText).toContain(`greeting=hello prod commit=${repo.head} job=compile`);
  });

  it('fails the run with the exit code of a failing step and skips later stages', async () => {
    const repo = makeRepo();
    const ids = await client.apply('failing', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build, test]
jobs:
  compile:
    stage: build
    script: [echo before, "exit 3", echo never]
  unit:
    stage: test
    script: [echo unreachable]`,
    ]);
    const run = await client.waitRun(await client.trigger(ids.build, atHead(repo)));
    expect(run.status).toBe('failed');
    const [compile] = run.stages[0].jobs;
    expect(compile.status).toBe('failed');
    expect(compile.exit_code).toBe(3);
    const text = compile.logs.map((l: any) => l.text);
    expect(text).toContain('before');
    expect(text).not.toContain('never');
    expect(run.stages[1].status).toBe('skipped');
    expect(run.stages[1].jobs[0].status).toBe('skipped');
  });

  it('fails a job whose reference names nothing, with a message naming it', async () => {
    const repo = makeRepo();
    const ids = await client.apply('badref', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
variables:
  URL: "https://\${{ NO_SUCH_THING }}@example.test"
stages: [build]
jobs:
  compile:
    stage: build
    script: [echo hi]`,
    ]);
    const run = await client.waitRun(await client.trigger(ids.build, atHead(repo)));
    expect(run.status).toBe('failed');
    const text = run.stages[0].jobs[0].logs.map((l: any) => l.text).join('\n');
    expect(text).toContain('NO_SUCH_THING');
  });

  it('keeps artifacts with their exact bytes and SHA-256, and aggregates JUnit results', async () => {
    const bytes = randomBytes(300_000);
    const junit = `<?xml version="1.0"?>
<testsuite name="math" tests="3">
  <testcase classname="math" name="adds" time="0.01"/>
  <testcase classname="math" name="subtracts" time="0.02"/>
  <testcase classname="math" name="divides" time="0.03"><failure message="by zero">boom</failure></testcase>
</testsuite>`;
    const repo = makeRepo({ 'data.bin': bytes, 'reports/junit.xml': junit });
    const ids = await client.apply('outputs', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build]
jobs:
  package:
    stage: build
    script: [mkdir -p dist, cp data.bin dist/data.bin, echo small > dist/notes.txt]
    artifacts:
      paths: [dist/]
    test_reports: [reports/*.xml]`,
    ]);
    const runId = await client.trigger(ids.build, atHead(repo));
    expect((await client.waitRun(runId)).status).toBe('success');

    const { artifacts } = await client.get(`/api/v1/runs/${runId}/artifacts?download=true`);
    const byPath = Object.fromEntries(artifacts.map((a: any) => [a.path, a]));
    expect(Object.keys(byPath).sort()).toEqual(['dist/data.bin', 'dist/notes.txt']);
    const bin = byPath['dist/data.bin'];
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(bin).toMatchObject({
      size_bytes: bytes.length,
      content_sha256: sha,
      status: 'ready',
      job_name: 'package',
    });
    const download = await fetch(bin.download_url.replace(/^https?:\/\/[^/]+/, ci.base));
    expect(download.status).toBe(200);
    const got = Buffer.from(await download.arrayBuffer());
    expect(got.equals(bytes)).toBe(true);
    expect(createHash('sha256').update(got).digest('hex')).toBe(sha);
    const tampered = bin.download_url
      .replace(/^https?:\/\/[^/]+/, ci.base)
      .replace(/signature=([0-9a-f])/, (_: string, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    expect((await fetch(tampered)).status).toBe(403);

    const tests = await client.get(`/api/v1/runs/${runId}/tests`);
    expect(tests).toMatchObject({ tests: 3, passed: 2, failed: 1 });
    expect(tests.cases.find((c: any) => c.name === 'divides')).toMatchObject({ status: 'failed' });
  });

  it('masks a secret in stored and streamed logs, also its base64 and URL-encoded forms', async () => {
    const secret = 'pa55-Word/with+odd&chars';
    const repo = makeRepo();
    const ids = await client.apply('masked', [
      `name: deploy
materials:
  - git: { url: "${repo.url}", branch: main }
variables:
  PUSH_URL: "https://deployer:\${{ DEPLOY_TOKEN }}@registry.example.test/"
stages: [deploy]
jobs:
  ship:
    stage: deploy
    secrets: [DEPLOY_TOKEN]
    script:
      - echo "plain $DEPLOY_TOKEN"
      - printf '%s' "$DEPLOY_TOKEN" | base64
      - 'python3 -c "import os,urllib.parse;print(urllib.parse.quote(os.environ[\\"DEPLOY_TOKEN\\"], safe=\\"\\"))"'
      - echo "url $PUSH_URL"`,
    ]);
    const put = await client.post('/api/v1/projects/masked/secrets', { name: 'DEPLOY_TOKEN', value: secret });
    expect(put.status).toBe(201);
    const runId = await client.trigger(ids.deploy, atHead(repo));
    const run = await client.waitRun(runId);
    expect(run.status).toBe('success');
    const stored = client
      .jobs(run)
      .flatMap((j: any) => j.logs.map((l: any) => l.text))
      .join('\n');
    const streamed = (await readStream(ci.base, runId)).events.map((e) => e.data.text).join('\n');
    const forms = [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret)];
    for (const text of [stored, streamed]) {
      for (const form of forms) expect(text).not.toContain(form);
      expect(text).toContain('plain ***');
      expect(text).toContain('url https://deployer:***@registry.example.test/');
    }
    expect(JSON.stringify(await client.get('/api/v1/projects/masked/secrets'))).not.toContain(secret);
  });

  it('streams every line once and in order, resumes from Last-Event-ID and closes at the end', async () => {
    const repo = makeRepo();
    const ids = await client.apply('stream', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build]
jobs:
  noisy:
    stage: build
    matrix:
      PART: [a, b]
    script:
      - for i in $(seq 1 400); do echo "$PART line $i"; if [ $((i % 100)) = 0 ]; then sleep 0.2; fi; done`,
    ]);
    const runId = await client.trigger(ids.build, atHead(repo));
    // Follows the run live from the start; the server closes the stream once the run is over.
    const live = await readStream(ci.base, runId);
    const run = await client.run(runId, 0);
    expect(run.status).toBe('success');
    const events = live.events;
    expect(events.every((e) => e.event === 'log')).toBe(true);
    expect(live.end?.data).toEqual({ status: 'success' });
    const perJob = new Map<string, number[]>();
    for (const e of events)
      perJob.set(e.data.job_run_id, [...(perJob.get(e.data.job_run_id) ?? []), e.data.seq]);
    expect(perJob.size).toBe(2);
    for (const seqs of perJob.values())
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    for (const part of ['a', 'b']) {
      const lines = events.map((e) => e.data.text).filter((t) => t.startsWith(`${part} line `));
      expect(lines).toEqual(Array.from({ length: 400 }, (_, i) => `${part} line ${i + 1}`));
    }
    const ids2 = events.map((e) => e.id);
    expect(new Set(ids2).size).toBe(ids2.length);

    // A replay of the finished run from its 100th event gives exactly the rest, then closes.
    const resumed = await readStream(ci.base, runId, events[99].id);
    expect(resumed.events.map((e) => e.id)).toEqual(ids2.slice(100));
    expect(resumed.events.map((e) => e.data)).toEqual(events.slice(100).map((e) => e.data));
  });
});

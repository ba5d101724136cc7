import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CollectedArtifact,
  ExecutorDrainingError,
  JobExecutor,
  workspacePath,
} from '../../src/index.js';
import { logCollector, makeJob, makeRepo, scratchDir } from './helpers.js';

const repo = makeRepo([{ 'README.md': 'hello\n', 'lock.txt': 'deps v1\n' }]);

function executor(extra: Partial<ConstructorParameters<typeof JobExecutor>[0]> = {}) {
  const workdir = scratchDir('agent-work-');
  return { workdir, ex: new JobExecutor({ workdir, killGraceMs: 2_000, ...extra }) };
}

async function waitUntil(probe: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('JobExecutor', () => {
  it('runs a job in a fresh workspace with built-ins, variables, parameters, matrix values and secrets', async () => {
    const { ex, workdir } = executor();
    const logs = logCollector();
    const job = makeJob(repo, {
      env: { CI: 'true', CI_CAUSE: 'manual', TARGET: 'staging', NODE: '22', NODE_ENV: 'test' },
      secrets: { NPM_TOKEN: 'npm-secret-value-42' },
      script: [
        'echo "ci=$CI slug=$CI_PROJECT_SLUG pipeline=$CI_PIPELINE_NAME id=$CI_PIPELINE_ID run=$CI_RUN_ID counter=$CI_RUN_COUNTER"',
        'echo "job=$CI_JOB_NAME cause=$CI_CAUSE sha=$CI_COMMIT_SHA branch=$CI_COMMIT_BRANCH"',
        'echo "target=$TARGET node=$NODE env=$NODE_ENV"',
        'test "$NPM_TOKEN" = npm-secret-value-42 && echo secret-exported',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash default expansion
        'echo "agent-token=${CI_AGENT_TOKEN:-absent} home=${HOME:+set}"',
        'echo "pwd=$(pwd)"',
        'cat README.md',
      ],
    });
    // The agent's own environment holds its registration token: jobs must not see it.
    process.env.CI_AGENT_TOKEN = 'agent-registration-secret';
    let res: Awaited<ReturnType<JobExecutor['start']>['result']>;
    try {
      res = await ex.start(job, { onLog: logs.sink }).result;
    } finally {
      delete process.env.CI_AGENT_TOKEN;
    }
    expect(res).toMatchObject({ status: 'success', exit_code: 0, commit: repo.commits[0], artifacts: [] });
    const out = logs.stdout();
    expect(out).toContain('ci=true slug=shop pipeline=build id=p-1 run=r-1 counter=7');
    expect(out).toContain(`job=compile cause=manual sha=${repo.commits[0]} branch=main`);
    expect(out).toContain('target=staging node=22 env=test');
    expect(out).toContain('secret-exported');
    expect(out).toContain('agent-token=absent home=set');
    expect(out).toContain(`pwd=${join(workspacePath(workdir, job.jobRunId, 1), 'src')}`);
    expect(out).toContain('hello');
    expect(res.log_lines).toBe(logs.lines.length);
    // The workspace is gone after the job.
    expect(existsSync(workspacePath(workdir, job.jobRunId, 1))).toBe(false);
  });

  it('never lets a secret, its base64 or URL-encoded forms reach the log', async () => {
    const { ex } = executor();
    const logs = logCollector();
    const secret = 'p@ss w0rd/with+sym=bols';
    const job = makeJob(repo, {
      secrets: { API_KEY: secret },
      env: { NODE_BIN: process.execPath },
      script: [
        'echo "plain: $API_KEY"',
        'echo "stderr: $API_KEY" >&2',
        'printf %s "$API_KEY" | base64 -w0; echo',
        'printf "x%s" "$API_KEY" | base64 -w0; echo',
        'printf "xy%s" "$API_KEY" | base64 -w0; echo',
        'printf "Authorization: %s" "$API_KEY" | base64 -w0 | tr "+/" "-_"; echo',
        `"$NODE_BIN" -e 'console.log("url: " + encodeURIComponent(process.env.API_KEY))'`,
        `echo "inline literal: p@ss w0rd/with+sym=bols"`,
        'echo "fail: $API_KEY" && exit 4',
      ],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status).toBe('failed');
    expect(res.exit_code).toBe(4);
    const all = logs.text();
    const forbidden = [
      secret,
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
      encodeURIComponent(secret),
      Buffer.from(`x${secret}`).toString('base64').slice(2, 20),
      Buffer.from(`xy${secret}`).toString('base64').slice(3, 20),
    ];
    for (const f of forbidden) expect(all, f).not.toContain(f);
    expect(all).toContain('plain: ***');
    expect(all).toContain('stderr: ***');
    expect(all).toContain('url: ***');
    expect(JSON.stringify(res)).not.toContain(secret);
  });

  it('fails with the exit code of the failing line and runs nothing after it', async () => {
    const { ex, workdir } = executor({ keepFailedWorkspaces: true });
    const logs = logCollector();
    const job = makeJob(repo, { script: ['echo one', 'exit 3', 'echo two'] });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res).toMatchObject({ status: 'failed', exit_code: 3, error: 'exit code 3' });
    expect(logs.stdout()).toContain('one');
    expect(logs.stdout()).not.toContain('two');
    // Kept for inspection when configured so.
    expect(existsSync(join(workspacePath(workdir, job.jobRunId, 1), 'src', 'README.md'))).toBe(true);
  });

  it('fails clearly when the revision does not exist, without running the script', async () => {
    const { ex } = executor();
    const logs = logCollector();
    const missing = 'ab'.repeat(20);
    const job = makeJob(repo, {
      git: { url: repo.url, revision: missing, branch: 'main' },
      script: ['echo ran'],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status).toBe('failed');
    expect(res.exit_code).toBeNull();
    expect(res.error).toBe(`revision ${missing} does not exist in ${repo.url}`);
    expect(logs.stdout()).not.toContain('ran');
  });

  it('fails a job past its timeout and kills its processes', async () => {
    const { ex } = executor();
    const logs = logCollector();
    const job = makeJob(repo, { script: ['echo started', 'sleep 600'], timeoutMs: 2_000 });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status).toBe('failed');
    expect(res.error).toBe('timed out after 2s');
    expect(logs.text()).toContain('timed out after 2s');
  });

  it('cancels a running job within seconds and cleans up', async () => {
    const { ex, workdir } = executor();
    const logs = logCollector();
    const job = makeJob(repo, { script: ['echo running', 'sleep 600'] });
    const running = ex.start(job, { onLog: logs.sink });
    expect(ex.runningJobIds).toEqual([job.jobRunId]);
    await waitUntil(() => logs.stdout().includes('running'), 'the script to start');
    const t0 = Date.now();
    expect(ex.cancel(job.jobRunId, 'canceled by alice')).toBe(true);
    const res = await running.result;
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(res).toMatchObject({ status: 'canceled', error: 'canceled by alice' });
    expect(ex.runningJobIds).toEqual([]);
    expect(existsSync(workspacePath(workdir, job.jobRunId, 1))).toBe(false);
  });

  it('cancels during checkout too', async () => {
    const { ex } = executor();
    const running = ex.start(makeJob(repo), { onLog: () => {} });
    running.cancel();
    expect((await running.result).status).toBe('canceled');
  });

  it('collects and uploads artifacts with their exact size and SHA-256', async () => {
    const { ex } = executor();
    const uploaded: { a: CollectedArtifact; sha: string; size: number }[] = [];
    const uploader = {
      async upload(a: CollectedArtifact) {
        const bytes = readFileSync(a.absolutePath);
        uploaded.push({ a, sha: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
      },
    };
    const job = makeJob(repo, {
      script: [
        'mkdir -p dist/sub',
        'head -c 100000 /dev/urandom > dist/app.bin',
        'printf "hi" > dist/sub/.note',
      ],
      artifacts: { paths: ['dist/'], when: 'on_success' },
    });
    const res = await ex.start(job, { onLog: () => {}, artifactUploader: uploader }).result;
    expect(res.status).toBe('success');
    expect(res.artifacts.map((a) => [a.path, a.size_bytes])).toEqual([
      ['dist/app.bin', 100000],
      ['dist/sub/.note', 2],
    ]);
    for (const u of uploaded) {
      expect(u.a.content_sha256).toBe(u.sha);
      expect(u.a.size_bytes).toBe(u.size);
    }
    expect(uploaded).toHaveLength(2);

    // on_failure artifacts are not collected for a successful job, and are for a failed one.
    const onFailure = { paths: ['out.txt'], when: 'on_failure' as const };
    const ok = await ex.start(makeJob(repo, { script: ['echo x > out.txt'], artifacts: onFailure }), {
      onLog: () => {},
    }).result;
    expect(ok.artifacts).toEqual([]);
    const bad = await ex.start(
      makeJob(repo, { script: ['echo x > out.txt', 'false'], artifacts: onFailure }),
      {
        onLog: () => {},
      },
    ).result;
    expect(bad.artifacts.map((a) => a.path)).toEqual(['out.txt']);
  });

  it('fails the job when an artifact upload is refused', async () => {
    const { ex } = executor();
    const job = makeJob(repo, {
      script: ['echo x > a.txt'],
      artifacts: { paths: ['a.txt'], when: 'always' },
    });
    const res = await ex.start(job, {
      onLog: () => {},
      artifactUploader: { upload: async () => Promise.reject(new Error('digest mismatch')) },
    }).result;
    expect(res.status).toBe('failed');
    expect(res.error).toBe('uploading artifact a.txt failed: digest mismatch');
  });

  it('parses the JUnit reports of test_reports, also for a failed job', async () => {
    const { ex } = executor();
    const xml =
      '<testsuite name="unit" tests="2"><testcase classname="a.B" name="ok" time="0.5"/><testcase classname="a.B" name="bad" time="0.25"><failure message="expected 1"/></testcase></testsuite>';
    const job = makeJob(repo, {
      script: [
        'mkdir -p reports',
        `echo '${xml}' > reports/unit.xml`,
        'echo "<oops" > reports/broken.xml',
        'exit 1',
      ],
      testReports: ['reports/*.xml'],
    });
    const res = await ex.start(job, { onLog: () => {} }).result;
    expect(res.status).toBe('failed');
    expect(res.test_report).toMatchObject({
      suites: 1,
      tests: 2,
      failures: 1,
      errors: 0,
      skipped: 0,
      duration_s: 0.75,
    });
    expect(res.test_report?.unreadable?.map((u) => u.file)).toEqual(['reports/broken.xml']);
  });

  it('saves a cache after success and restores it for the next job with the same key', async () => {
    const { ex, workdir } = executor();
    const cache = [{ key: 'deps-{{ hash "lock.txt" }}', paths: ['deps/'] }];
    const first = logCollector();
    const res1 = await ex.start(
      makeJob(repo, {
        script: ['test ! -e deps', 'mkdir -p deps/nested', 'echo installed-once > deps/nested/pkg.txt'],
        cache,
      }),
      { onLog: first.sink },
    ).result;
    expect(res1.status).toBe('success');
    const key = `deps-${createHash('sha256').update('deps v1\n').digest('hex')}`;
    expect(first.text()).toContain(`no cache for key ${key}`);
    expect(first.text()).toContain(`cache ${key} saved`);
    expect(await ex.cacheStore.has({ project: 'shop', key })).toBe(true);

    const second = logCollector();
    const res2 = await ex.start(makeJob(repo, { script: ['cat deps/nested/pkg.txt'], cache }), {
      onLog: second.sink,
    }).result;
    expect(res2.status).toBe('success');
    expect(second.text()).toContain(`cache ${key} restored`);
    expect(second.stdout()).toContain('installed-once');
    expect(second.text()).toContain('already saved');

    // Another project does not see it, and a failed job saves nothing.
    const other = logCollector();
    await ex.start(makeJob(repo, { projectSlug: 'other', script: ['test ! -e deps', 'false'], cache }), {
      onLog: other.sink,
    }).result;
    expect(await ex.cacheStore.has({ project: 'other', key })).toBe(false);
    expect(existsSync(join(workdir, 'cache'))).toBe(true);
  });

  it('drains: refuses new jobs and waits for the running ones', async () => {
    const { ex } = executor();
    const logs = logCollector();
    const running = ex.start(makeJob(repo, { script: ['echo go', 'sleep 1', 'echo done'] }), {
      onLog: logs.sink,
    });
    await waitUntil(() => logs.stdout().includes('go'), 'the script to start');
    // When drain() resolves, the running job has finished its last line.
    const draining = ex.drain().then(() => logs.stdout().includes('done'));
    expect(ex.isDraining).toBe(true);
    expect(() => ex.start(makeJob(repo), { onLog: () => {} })).toThrow(ExecutorDrainingError);
    expect(await draining).toBe(true);
    expect((await running.result).status).toBe('success');
    expect(logs.stdout()).toContain('done');
  });
});

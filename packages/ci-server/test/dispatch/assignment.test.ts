// What an agent receives: the environment layers and their precedence, `${{ NAME }}` references (nested,
// secrets, cycles, unknown names), project secrets over global ones, services, caches, artifacts, test
// reports, timeout and the git source — built from the store by AssignmentBuilder, on SQLite and PostgreSQL.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ NAME }}` references are the subject here.
import { createSecretBox } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { AssignmentBuilder } from '../../src/dispatch/assignment-builder.js';
import { JobReferenceError, Resolver, referencedNames } from '../../src/dispatch/job-env.js';
import { applyPipeline, databaseUrl, STORES, startServer, trigger } from './helpers.js';

const layers = (over: Partial<ConstructorParameters<typeof Resolver>[0]> = {}) => ({
  builtins: { CI: 'true', CI_JOB_NAME: 'j' },
  pipelineVariables: {},
  jobVariables: {},
  parameters: {},
  matrix: {},
  ...over,
});

describe('references', () => {
  it('finds referenced names and leaves plain ${NAME} alone', () => {
    expect([...referencedNames(['a ${{ ONE }} ${{TWO}} ${THREE} $FOUR', '${{ ONE }}'])]).toEqual([
      'ONE',
      'TWO',
    ]);
  });

  it('resolves nested references through the layers, later layers winning', () => {
    const r = new Resolver(
      layers({
        pipelineVariables: { HOST: 'db.${{ DOMAIN }}', DOMAIN: 'pipeline.test', LEVEL: 'pipeline' },
        jobVariables: { LEVEL: 'job', URL: 'postgres://${{ USER }}:${{ PASS }}@${{ HOST }}/' },
        parameters: { DOMAIN: 'param.test', USER: 'admin' },
        matrix: { LEVEL: 'matrix' },
      }),
      new Map([['PASS', 'hunter22']]),
    );
    const env = r.environment();
    expect(env).toMatchObject({
      CI: 'true',
      HOST: 'db.param.test',
      LEVEL: 'matrix',
      URL: 'postgres://admin:hunter22@db.param.test/',
    });
    expect([...r.used]).toEqual(['PASS']);
  });

  it('names the unknown reference, and refuses cycles and runaway growth', () => {
    expect(() =>
      new Resolver(layers({ jobVariables: { A: '${{ MISSING }}' } }), new Map()).environment(),
    ).toThrow(/\$\{\{ MISSING \}\} in A names no parameter, variable or secret/);
    expect(() =>
      new Resolver(layers({ jobVariables: { A: '${{ B }}', B: 'x${{ A }}' } }), new Map()).environment(),
    ).toThrow(JobReferenceError);
    const doubling: Record<string, string> = { V0: 'x'.repeat(1000) };
    for (let i = 1; i <= 12; i++) doubling[`V${i}`] = `\${{ V${i - 1} }}\${{ V${i - 1} }}`;
    expect(() => new Resolver(layers({ jobVariables: doubling }), new Map()).environment()).toThrow(
      /longer than/,
    );
  });
});

describe.each(STORES)('assignments built from the store on %s', (kind) => {
  it('carries the environment, secrets, services, caches, artifacts, reports and timeout', async () => {
    const s = await startServer(await databaseUrl(kind));
    try {
      const pipeline = await applyPipeline(
        s,
        'assemble',
        `name: deploy
materials:
  - git: { url: "file:///srv/repo.git", branch: main }
parameters:
  TARGET: staging
variables:
  NODE_ENV: test
  DSN: "postgres://app:\${{ DB_PASSWORD }}@\${{ TARGET }}.db.test/app"
stages: [ship]
services:
  - name: cache
    command: [redis-server, --port, "\${{ CACHE_PORT }}"]
    ready: { tcp: 6399, timeout: 5s }
jobs:
  release:
    stage: ship
    variables: { CACHE_PORT: "6399", NODE_ENV: production }
    secrets: [NPM_TOKEN, SHARED_KEY]
    services: [cache]
    matrix: { REGION: [eu] }
    cache:
      - key: 'npm-{{ hash "package-lock.json" }}'
        paths: [node_modules/]
    artifacts: { paths: [dist/], when: always }
    test_reports: [reports/*.xml]
    timeout: 90s
    tags: [linux]
    script: [make release]`,
      );
      const put = (path: string, name: string, value: string) => s.inject('POST', path, { name, value });
      expect((await put('/api/v1/projects/assemble/secrets', 'NPM_TOKEN', 'npm-project-value')).status).toBe(
        201,
      );
      expect((await put('/api/v1/projects/assemble/secrets', 'DB_PASSWORD', 'db-pass-1234')).status).toBe(
        201,
      );
      expect((await put('/api/v1/admin/secrets', 'SHARED_KEY', 'global-shared-key')).status).toBe(201);
      expect((await put('/api/v1/admin/secrets', 'NPM_TOKEN', 'global-loses')).status).toBe(201);
      const runId = await trigger(s, pipeline, { git_ref: 'release/1.0', parameters: { TARGET: 'prod' } });

      const db = s.server.database.db;
      const job = await db
        .selectFrom('job_runs')
        .select('id')
        .where('run_id', '=', runId)
        .executeTakeFirstOrThrow();
      const builder = new AssignmentBuilder(db, createSecretBox('2'.repeat(64)));
      const built = await builder.build(job.id);
      if (!built.ok) throw new Error(built.error);
      const a = built.assignment;
      expect(built.tags).toEqual(['linux']);
      expect(a).toMatchObject({
        jobRunId: job.id,
        attempt: 1,
        projectSlug: 'assemble',
        pipelineName: 'deploy',
        jobName: 'release',
        cause: 'manual',
        runCounter: 1,
        git: { url: 'file:///srv/repo.git', revision: 'release/1.0', branch: 'release/1.0' },
        script: ['make release'],
        cache: [{ key: 'npm-{{ hash "package-lock.json" }}', paths: ['node_modules/'] }],
        artifacts: { paths: ['dist/'], when: 'always' },
        testReports: ['reports/*.xml'],
        timeoutMs: 90_000n,
      });
      expect(a.env).toMatchObject({
        CI: 'true',
        CI_PROJECT_SLUG: 'assemble',
        CI_PIPELINE_NAME: 'deploy',
        CI_RUN_ID: runId,
        CI_RUN_COUNTER: '1',
        CI_JOB_NAME: 'release',
        CI_CAUSE: 'manual',
        CI_COMMIT_SHA: '',
        CI_COMMIT_BRANCH: 'release/1.0',
        TARGET: 'prod',
        NODE_ENV: 'production',
        REGION: 'eu',
        DSN: 'postgres://app:db-pass-1234@prod.db.test/app',
      });
      // Job secrets (project first, then global) and the secret a reference pulled in, for masking.
      expect(a.secrets).toEqual({
        NPM_TOKEN: 'npm-project-value',
        SHARED_KEY: 'global-shared-key',
        DB_PASSWORD: 'db-pass-1234',
      });
      expect(a.services).toEqual([
        {
          name: 'cache',
          command: ['redis-server', '--port', '6399'],
          ready: { tcp: 6399, http: '', command: [], timeoutMs: 5000 },
        },
      ]);

      // A job secret nobody defines fails the job with a message naming it.
      await s.inject('DELETE', '/api/v1/projects/assemble/secrets/NPM_TOKEN');
      await s.inject('DELETE', '/api/v1/admin/secrets/NPM_TOKEN');
      const missing = await builder.build(job.id);
      expect(missing.ok).toBe(false);
      expect(!missing.ok && missing.error).toMatch(/secret NPM_TOKEN is not defined/);
    } finally {
      await s.server.close();
    }
  });
});

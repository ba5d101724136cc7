// One browser test with a real build agent process (the e2e harness's): a run triggered from the UI is
// picked up, its log reaches the page over the SSE stream, the page shows the run's success, exit codes,
// the agent, the artifact and test results, and the agents page lists the agent. The required flows are
// covered without an agent by the other UI tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_TOKEN,
  type AgentProcess,
  FAST_TIMING,
  makeRepo,
  startAgent,
  waitForAgents,
} from '../e2e/harness.js';
import { ADMIN_PASSWORD, apiSession, nav, openPage, signIn, startUi, type UiEnv } from './harness.js';

let env: UiEnv;
let agent: AgentProcess | undefined;

beforeAll(async () => {
  env = await startUi({ agentToken: AGENT_TOKEN, agentTiming: FAST_TIMING });
  agent = startAgent(env.grpcPort, 'ui-agent', { capacity: 2 });
  await waitForAgents(env.server, ['ui-agent']);
}, 90_000);

afterAll(async () => {
  await agent?.stop();
  await env?.close();
});

describe('a real run seen in the browser', () => {
  it('streams the log of a run executed by a real agent and shows its results', async () => {
    const repo = makeRepo({ 'README.md': '# ui\n' });
    const admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
    const applied = await admin.post('/api/v1/projects/apply', {
      yaml: `project:
  slug: live
  name: Live
pipelines:
  - name: app
    materials:
      - git: { url: "${repo.url}", branch: main }
    stages: [build, test]
    jobs:
      compile:
        stage: build
        script:
          - for i in 1 2 3; do echo "compile line $i"; done
          - echo "a warning" >&2
          - mkdir -p dist && echo "app" > dist/app.txt
        artifacts:
          paths: [dist/]
      unit:
        stage: test
        script:
          - mkdir -p reports
          - printf '<testsuite name="s" tests="2"><testcase classname="c" name="ok"/><testcase classname="c" name="bad"><failure message="boom"/></testcase></testsuite>' > reports/unit.xml
          - echo "tests done"
        test_reports: [reports/*.xml]
`,
    });
    expect(applied.status).toBe(200);

    const { page, problems, context } = await openPage(env);
    try {
      await signIn(page, 'admin', ADMIN_PASSWORD);
      await page.goto('/projects/live');
      await page.getByRole('button', { name: 'Trigger app' }).click();
      await page
        .getByRole('dialog', { name: 'Trigger app' })
        .getByRole('button', { name: 'Start run' })
        .click();
      await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);

      await page.getByRole('heading', { name: 'app #1 success' }).waitFor({ timeout: 60_000 });
      await page.getByRole('status').filter({ hasText: 'complete' }).waitFor();
      await page.getByRole('tab', { name: /compile/ }).click();
      const log = page.getByRole('log');
      await log.getByText('compile line 3').waitFor();
      // The job's stderr shares its stdout pipe (docs/ci-agent.md), so the warning is one line of the
      // merged stream, in the order the script wrote it.
      await log.getByText(/^\d+a warning$/).waitFor();
      const lines = await log.locator('.log-line').allTextContents();
      const warning = lines.findIndex((l) => /^\d+a warning$/.test(l));
      expect(warning).toBeGreaterThan(lines.findIndex((l) => /^\d+compile line 3$/.test(l)));
      await page.getByRole('tab', { name: /unit/ }).click();
      await log.getByText(/^\d+tests done$/).waitFor();

      const compile = page
        .getByRole('table', { name: 'Jobs of build' })
        .getByRole('row')
        .filter({ hasText: 'compile' });
      expect(await compile.textContent()).toContain('ui-agent');
      expect(await compile.textContent()).toContain('success');
      await page
        .getByRole('table', { name: 'Artifacts' })
        .getByRole('link', { name: /dist\/app\.txt/ })
        .waitFor();
      await page.getByRole('table', { name: 'Failing tests' }).getByText('boom').waitFor();

      await nav(page, 'Agents').click();
      const row = page
        .getByRole('table', { name: 'Agents' })
        .getByRole('row')
        .filter({ hasText: 'ui-agent' });
      await row.getByText(/online|busy/).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

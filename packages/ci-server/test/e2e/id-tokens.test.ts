// gocdnext's id_tokens end to end with a real agent (issue 29): a job declaring two tokens gets each as the
// variable its key names, minted at dispatch and signed with the control plane's key; the test verifies
// them with `jose` against the JWKS the server serves unauthenticated (found through its discovery
// document), checks the claims and the hour of life, and finds the token masked in the log. A fork's pull
// request run gets no token, as it gets no secret.
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { createLocalJWKSet, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  type Api,
  api,
  atHead,
  type E2eServer,
  makeRepo,
  startAgent,
  startServer,
} from './harness.js';

const ISSUER = 'https://ci.example.test';
const GCP_AUD =
  'https://iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/ci/providers/x';
const HOOK_SECRET = 'e2e-hook-secret-oidc';

let ci: E2eServer;
let client: Api;
let agent: AgentProcess;

beforeAll(async () => {
  ci = await startServer({ env: { CI_PUBLIC_URL: ISSUER } });
  client = api(ci.base);
  agent = startAgent(ci.grpcPort, 'oidc-agent', { capacity: 1 });
  // Longer than waitForAgents' 30 s: the agent's TypeScript start alone takes 20 s on a loaded machine.
  await waitFor(async () => ci.server.agents.connected().some((a) => a.name === 'oidc-agent'), {
    what: `agent oidc-agent connected (output: ${agent.output()})`,
    timeoutMs: 150_000,
  });
}, 180_000);
afterAll(async () => {
  await agent?.stop();
  await ci?.server.close();
});

const logOf = (run: any) =>
  client
    .jobs(run)
    .flatMap((j: any) => j.logs.map((l: any) => l.text))
    .join('\n');

async function artifactText(runId: string, path: string): Promise<string> {
  const { artifacts } = await client.get(`/api/v1/runs/${runId}/artifacts?download=true`);
  const a = artifacts.find((x: any) => x.path === path);
  expect(a, `artifact ${path}`).toBeDefined();
  const res = await fetch(a.download_url.replace(/^https?:\/\/[^/]+/, ci.base));
  expect(res.status).toBe(200);
  return res.text();
}

const pipeline = (url: string) => `name: deploy
materials:
  - git: { url: "${url}", branch: main, on: [push, pull_request] }
stages: [ship]
jobs:
  ship:
    stage: ship
    id_tokens:
      GCP_ID_TOKEN: { aud: "${GCP_AUD}" }
      VAULT_JWT: { aud: [https://vault.example.com, https://vault-dr.example.com] }
    script:
      - printf '%s' "\${GCP_ID_TOKEN:-}" > gcp.jwt
      - printf '%s' "\${VAULT_JWT:-}" > vault.jwt
      - 'echo "token=[\${GCP_ID_TOKEN:-}]"'
    artifacts:
      paths: [gcp.jwt, vault.jwt]`;

describe("gocdnext's id_tokens with a real agent", () => {
  it('delivers signed tokens a verifier accepts with the served JWKS, masked in the log', async () => {
    const repo = makeRepo({ 'README.md': '# oidc\n' });
    const ids = await client.apply('oidc', [pipeline(repo.url)]);
    const runId = await client.trigger(ids.deploy, atHead(repo));
    const run = await client.waitRun(runId, undefined, 120_000);
    expect(run.status, logOf(run)).toBe('success');

    // The discovery document and the keys are public: a cloud fetches them without credentials.
    const discovery = (await (await fetch(`${ci.base}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    expect(discovery).toMatchObject({
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/.well-known/jwks.json`,
      id_token_signing_alg_values_supported: ['RS256'],
    });
    const jwksPath = new URL(discovery.jwks_uri).pathname;
    const jwksRes = await fetch(`${ci.base}${jwksPath}`);
    expect(jwksRes.status).toBe(200);
    const jwks = (await jwksRes.json()) as { keys: (JWK & { kid: string })[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const keySet = createLocalJWKSet(jwks);

    const gcp = await artifactText(runId, 'gcp.jwt');
    expect(decodeProtectedHeader(gcp)).toMatchObject({ alg: 'RS256', kid: jwks.keys[0].kid });
    const { payload } = await jwtVerify(gcp, keySet, { issuer: ISSUER, audience: GCP_AUD });
    expect(payload).toMatchObject({
      iss: ISSUER,
      aud: GCP_AUD,
      sub: 'project:oidc:pipeline:deploy:ref_type:branch:ref:main',
      project_slug: 'oidc',
      project_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      pipeline: 'deploy',
      pipeline_id: ids.deploy,
      job: 'ship',
      run_id: runId,
      run_counter: '1',
      cause: 'manual',
      ref_type: 'branch',
      ref: 'main',
      sha: repo.head,
    });
    expect(typeof payload.jti).toBe('string');
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(600);
    expect(payload.nbf).toBe(payload.iat! - 60);

    const vault = await artifactText(runId, 'vault.jwt');
    const v = await jwtVerify(vault, keySet, { issuer: ISSUER, audience: 'https://vault-dr.example.com' });
    expect(v.payload.aud).toEqual(['https://vault.example.com', 'https://vault-dr.example.com']);
    expect(v.payload.jti).not.toBe(payload.jti);
    // A token for another audience does not pass a verifier expecting this one.
    await expect(jwtVerify(vault, keySet, { issuer: ISSUER, audience: GCP_AUD })).rejects.toThrow();

    const log = logOf(run);
    expect(log).toContain('token=[***]');
    expect(log).not.toContain(gcp);
    expect(log).not.toContain(gcp.split('.')[1]);
  }, 180_000);

  it("gives a fork's pull request run no token", async () => {
    const repo = makeRepo({ 'README.md': '# oidc fork\n' });
    await client.apply('oidc-fork', [pipeline(repo.url)]);
    expect(
      (
        await client.post('/api/v1/projects/oidc-fork/secrets', {
          name: 'WEBHOOK_SECRET',
          value: HOOK_SECRET,
        })
      ).status,
    ).toBe(201);
    const fixture = join(import.meta.dirname, '../triggers/fixtures/github-pull-request.json');
    const p = JSON.parse(readFileSync(fixture, 'utf8'));
    p.repository.clone_url = repo.url;
    p.pull_request.base.repo.clone_url = repo.url;
    p.pull_request.head.sha = repo.head;
    p.pull_request.head.repo.full_name = 'mallory/oidc-fork';
    p.pull_request.head.repo.clone_url = 'https://github.com/mallory/oidc-fork.git';
    const body = JSON.stringify(p);
    const res = await fetch(`${ci.base}/api/webhooks/github`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': `sha256=${createHmac('sha256', HOOK_SECRET).update(body).digest('hex')}`,
      },
      body,
    });
    expect(res.status).toBe(200);
    const { runs } = (await res.json()) as { runs: string[] };
    expect(runs).toHaveLength(1);
    expect((await client.post(`/api/v1/runs/${runs[0]}/approve`, {})).status).toBe(200);
    const run = await client.waitRun(runs[0], undefined, 120_000);
    expect(run.status, logOf(run)).toBe('success');
    const log = logOf(run);
    expect(log).toContain('token=[]');
    expect(log).toContain(
      '[ci] secrets withheld (GCP_ID_TOKEN, VAULT_JWT): this run builds a pull request from a fork',
    );
    expect(await artifactText(runs[0], 'gcp.jwt')).toBe('');
  }, 180_000);
});

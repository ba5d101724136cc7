// The id_tokens signing keys (issue 29): made once at first use and stored sealed (the private half never in
// the clear, nor in the JWKS or the admin listing), shared by a second issuer over the same store, and
// rotated through the admin route — gracefully (the old key keeps verifying its tokens until they expire)
// or in an emergency (older keys leave the JWKS at once).
import { createSecretBox } from '@app/kit';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdTokenIssuer } from '../../src/id-tokens/issuer.js';
import type { CiServer } from '../../src/index.js';
import { readServerSetting } from '../../src/store/settings.js';
import { type Client, client, startApiServer } from '../api-helpers.js';
import { PUBLIC_URL, startAuthServer } from '../auth/helpers.js';

let server: CiServer;
let api: Client;
beforeAll(async () => {
  server = await startApiServer('sqlite');
  api = client(server);
});
afterAll(async () => server?.close());

const facts = {
  projectSlug: 's',
  projectId: 'p',
  pipelineName: 'deploy',
  pipelineId: 'pl',
  jobName: 'j',
  runId: 'r',
  runCounter: 1,
  cause: 'manual',
  event: null,
  hasGit: true,
  ref: 'main',
  sha: '',
  matrix: {},
};

async function verify(token: string, aud = 'a') {
  const jwks = (await api.get('/.well-known/jwks.json')).body;
  return jwtVerify(token, createLocalJWKSet(jwks), { issuer: server.idTokens.issuer, audience: aud });
}

describe('id_tokens signing keys', () => {
  it('are generated once, sealed at rest, and shared by every issuer over the store', async () => {
    const token = await server.idTokens.mint(['a'], facts);
    const stored = (await readServerSetting(server.database.db, 'id_token_signing_keys'))!;
    expect(stored).toBeDefined();
    const doc = JSON.parse(stored);
    expect(doc.keys).toHaveLength(1);
    expect(doc.keys[0].private_sealed).toMatch(/^v1\./);
    expect(stored).not.toMatch(/"d":/);
    const jwks = (await api.get('/.well-known/jwks.json')).body;
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([doc.keys[0].kid]);
    expect(JSON.stringify(jwks)).not.toMatch(/"(d|p|q|dp|dq|qi)":/);
    // Another replica (a second issuer on the same store and key) signs with the same key.
    const other = new IdTokenIssuer({
      db: server.database.db,
      box: createSecretBox('0'.repeat(64)),
      issuer: server.idTokens.issuer,
    });
    const second = await other.mint(['a'], facts);
    expect((await verify(second)).protectedHeader.kid).toBe(doc.keys[0].kid);
    expect((await verify(token)).payload.sub).toBe('project:s:pipeline:deploy:ref_type:branch:ref:main');
  });

  it('rotate gracefully: the old key still verifies; in an emergency it leaves the JWKS', async () => {
    const before = await server.idTokens.mint(['a'], facts);
    const oldKid = (await api.get('/api/v1/admin/oidc/keys')).body.keys[0].kid;
    const rotated = await api.post('/api/v1/admin/oidc/keys/rotate', {});
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ active: true, published: true, alg: 'RS256' });
    expect(rotated.body.kid).not.toBe(oldKid);
    const listed = (await api.get('/api/v1/admin/oidc/keys')).body.keys;
    expect(listed.map((k: { kid: string; published: boolean }) => [k.kid, k.published])).toEqual([
      [rotated.body.kid, true],
      [oldKid, true],
    ]);
    expect((await verify(before)).protectedHeader.kid).toBe(oldKid);
    const after = await server.idTokens.mint(['a'], facts);
    expect((await verify(after)).protectedHeader.kid).toBe(rotated.body.kid);

    const emergency = await api.post('/api/v1/admin/oidc/keys/rotate', { mode: 'emergency' });
    expect(emergency.status).toBe(200);
    const jwks = (await api.get('/.well-known/jwks.json')).body;
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([emergency.body.kid]);
    await expect(verify(before)).rejects.toThrow();
    await expect(verify(after)).rejects.toThrow();
    expect((await api.post('/api/v1/admin/oidc/keys/rotate', { mode: 'later' })).status).toBe(400);
  });

  it('serves discovery and keys without authentication; the key admin routes need an admin', async () => {
    const secured = await startAuthServer();
    try {
      const anon = client(secured);
      const discovery = await anon.get('/.well-known/openid-configuration');
      expect(discovery.status).toBe(200);
      expect(discovery.body).toMatchObject({
        issuer: PUBLIC_URL,
        jwks_uri: `${PUBLIC_URL}/.well-known/jwks.json`,
        subject_types_supported: ['public'],
      });
      expect(discovery.headers['cache-control']).toBe('public, max-age=300');
      const jwks = await anon.get('/.well-known/jwks.json');
      expect(jwks.status).toBe(200);
      expect(jwks.body.keys).toHaveLength(1);
      expect((await anon.get('/api/v1/admin/oidc/keys')).status).toBe(401);
      expect((await anon.post('/api/v1/admin/oidc/keys/rotate', {})).status).toBe(401);
    } finally {
      await secured.close();
    }
  });
});

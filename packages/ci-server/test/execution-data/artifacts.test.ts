// Artifacts and cache blobs on SQLite and PostgreSQL: verified storage (size and SHA-256, nothing kept on a
// mismatch), the run's list with the spec's fields, signed download links (exact bytes; a changed or
// expired link is 403), replacement of a re-uploaded path, and immutable cache entries per project.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobRejectedError } from '../../src/artifacts/blob-files.js';
import { DownloadSigner } from '../../src/artifacts/signing.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, startDataFixture } from './fixture.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function* chunksOf(data: Buffer, size = 7_000): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe.each(STORES)('artifacts on %s', (kind) => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture(kind);
  });
  afterAll(() => f.server.close());

  const artifacts = () => f.server.execution.artifacts;

  it('stores a verified upload, lists it with the spec fields and downloads the exact bytes', async () => {
    const { runId, compile } = await f.newRun();
    const data = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 31) % 251));
    const stored = await artifacts().storeArtifact(
      { jobRunId: compile, path: 'dist/app.tar', sizeBytes: BigInt(data.length), contentSha256: sha(data) },
      chunksOf(data),
    );
    expect(stored.status).toBe('ready');

    const plain = await f.api.get(`/api/v1/runs/${runId}/artifacts`);
    expect(plain.status).toBe(200);
    expect(plain.body.artifacts).toEqual([
      {
        id: stored.id,
        job_run_id: compile,
        job_name: 'compile',
        path: 'dist/app.tar',
        size_bytes: data.length,
        status: 'ready',
        content_sha256: sha(data),
        created_at: expect.any(String),
      },
    ]);

    const signed = await f.api.get(`/api/v1/runs/${runId}/artifacts?download=true`);
    const url = new URL(signed.body.artifacts[0].download_url);
    // Without CI_PUBLIC_URL the link follows the address the request came in on.
    expect(url.origin).toBe('http://localhost');
    const viaHost = await f.server.app.inject({
      url: `/api/v1/runs/${runId}/artifacts?download=true`,
      headers: { host: 'ci.example.test:9000' },
    });
    expect(viaHost.json().artifacts[0].download_url).toMatch(
      /^http:\/\/ci\.example\.test:9000\/api\/v1\/artifacts\//,
    );
    expect(url.pathname).toBe(`/api/v1/artifacts/${stored.id}/download`);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(240_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(300_000);

    // No credentials needed: the signature is the permission.
    const download = await f.server.app.inject({ url: url.pathname + url.search });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(data)).toBe(true);
    expect(sha(download.rawPayload)).toBe(sha(data));
    expect(download.headers['x-content-sha256']).toBe(sha(data));
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toContain('filename="app.tar"');
  });

  it('refuses a changed, foreign or expired link with 403 and a missing signature with 400', async () => {
    const { compile } = await f.newRun();
    const data = Buffer.from('hello artifact');
    const a = await artifacts().storeArtifact(
      { jobRunId: compile, path: 'hello.txt', sizeBytes: data.length, contentSha256: sha(data) },
      chunksOf(data),
    );
    const path = f.server.execution.signer.path(a.id);
    const url = new URL(`http://x${path}`);
    const get = (q: URLSearchParams, id = a.id) =>
      f.server.app.inject({ url: `/api/v1/artifacts/${id}/download?${q}` });
    expect((await get(url.searchParams)).statusCode).toBe(200);

    const tampered = new URLSearchParams(url.searchParams);
    const sig = tampered.get('signature')!;
    tampered.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    const t = await get(tampered);
    expect(t.statusCode).toBe(403);
    expect(t.json()).toEqual({ error: expect.any(String) });

    const later = new URLSearchParams(url.searchParams);
    later.set('expires', String(Number(later.get('expires')) + 3600));
    expect((await get(later)).statusCode).toBe(403);

    // A valid signature for another artifact does not open this one.
    const { lint } = await f.newRun();
    const b = await artifacts().storeArtifact(
      { jobRunId: lint, path: 'other.txt', sizeBytes: 1, contentSha256: sha(Buffer.from('x')) },
      chunksOf(Buffer.from('x')),
    );
    expect((await get(url.searchParams, b.id)).statusCode).toBe(403);

    // Signed ten minutes ago: expired.
    const old = new URL(`http://x${f.server.execution.signer.path(a.id, Date.now() - 600_000)}`);
    const expired = await get(old.searchParams);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toMatch(/expired/);

    // Signed with another key: invalid.
    const foreign = new URL(`http://x${new DownloadSigner('1'.repeat(64)).path(a.id)}`);
    expect((await get(foreign.searchParams)).statusCode).toBe(403);

    expect((await f.server.app.inject({ url: `/api/v1/artifacts/${a.id}/download` })).statusCode).toBe(400);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const unknownUrl = new URL(`http://x${f.server.execution.signer.path(unknown)}`);
    expect((await get(unknownUrl.searchParams, unknown)).statusCode).toBe(404);
  });

  it('keeps nothing when the bytes do not match the declared size or SHA-256', async () => {
    const { runId, compile } = await f.newRun();
    const root = artifacts().root;
    const before = filesUnder(root).length;
    const data = Buffer.from('the real content');
    const cases = [
      { sizeBytes: data.length, contentSha256: sha(Buffer.from('something else')) },
      { sizeBytes: data.length + 1, contentSha256: sha(data) },
      { sizeBytes: data.length - 1, contentSha256: sha(data) },
    ];
    for (const c of cases) {
      const err = await artifacts()
        .storeArtifact({ jobRunId: compile, path: 'x.bin', ...c }, chunksOf(data, 3))
        .catch((e) => e);
      expect(err).toBeInstanceOf(BlobRejectedError);
      expect(err.kind).toBe('mismatch');
    }
    expect(filesUnder(root)).toHaveLength(before);
    expect((await f.api.get(`/api/v1/runs/${runId}/artifacts`)).body.artifacts).toEqual([]);
  });

  it('checks headers: unknown job run, bad paths and digests', async () => {
    const { compile } = await f.newRun();
    const ok = { jobRunId: compile, path: 'a.txt', sizeBytes: 1, contentSha256: 'a'.repeat(64) };
    const kindOf = (h: typeof ok) =>
      artifacts()
        .checkHeader(h)
        .then(
          () => 'ok',
          (e: BlobRejectedError) => e.kind,
        );
    expect(await kindOf(ok)).toBe('ok');
    expect(await kindOf({ ...ok, jobRunId: '00000000-0000-4000-8000-000000000000' })).toBe('not_found');
    expect(await kindOf({ ...ok, path: '../etc/passwd' })).toBe('invalid');
    expect(await kindOf({ ...ok, path: '/abs' })).toBe('invalid');
    expect(await kindOf({ ...ok, path: '' })).toBe('invalid');
    expect(await kindOf({ ...ok, contentSha256: 'xyz' })).toBe('invalid');
    expect(await kindOf({ ...ok, sizeBytes: -1 })).toBe('invalid');
  });

  it('replaces an artifact uploaded again under the same path by the same job run', async () => {
    const { runId, compile } = await f.newRun();
    const one = Buffer.from('first');
    const two = Buffer.from('second version');
    await artifacts().storeArtifact(
      { jobRunId: compile, path: 'out.txt', sizeBytes: one.length, contentSha256: sha(one) },
      chunksOf(one),
    );
    const before = filesUnder(artifacts().root).length;
    const b = await artifacts().storeArtifact(
      { jobRunId: compile, path: 'out.txt', sizeBytes: two.length, contentSha256: sha(two) },
      chunksOf(two),
    );
    const list = (await f.api.get(`/api/v1/runs/${runId}/artifacts`)).body.artifacts;
    expect(list.map((a: { id: string; size_bytes: number }) => [a.id, a.size_bytes])).toEqual([
      [b.id, two.length],
    ]);
    expect(filesUnder(artifacts().root)).toHaveLength(before);
  });

  it('answers 404 for an unknown run and 400 for bad query values', async () => {
    expect((await f.api.get('/api/v1/runs/00000000-0000-4000-8000-000000000000/artifacts')).status).toBe(404);
    const { runId } = await f.newRun();
    expect((await f.api.get(`/api/v1/runs/${runId}/artifacts?download=maybe`)).status).toBe(400);
    expect((await f.api.get(`/api/v1/runs/${runId}/artifacts?other=1`)).status).toBe(400);
  });

  describe('cache blobs', () => {
    it('saves once per project and key, and serves the same bytes back', async () => {
      const caches = f.server.execution.caches;
      const data = Buffer.alloc(300_000, 7);
      expect(await caches.lookup('shop', 'deps-1')).toEqual({ found: false });
      expect(await caches.save('shop', 'deps-1', chunksOf(data))).toEqual({ saved: true });
      // Immutable: a second upload of the key is discarded.
      expect(await caches.save('shop', 'deps-1', chunksOf(Buffer.from('other')))).toEqual({ saved: false });
      const hit = await caches.lookup('shop', 'deps-1');
      expect(hit.found).toBe(true);
      if (!hit.found) return;
      expect(hit.sizeBytes).toBe(data.length);
      const parts: Buffer[] = [];
      for await (const c of hit.open()) parts.push(c as Buffer);
      expect(Buffer.concat(parts).equals(data)).toBe(true);
      // Keys are per project.
      expect(await caches.lookup('other-project', 'deps-1')).toEqual({ found: false });
      const err = await caches.save('other-project', 'k', chunksOf(data)).catch((e) => e);
      expect(err).toBeInstanceOf(BlobRejectedError);
      expect(err.kind).toBe('not_found');
      expect((await caches.save('shop', '', chunksOf(data)).catch((e) => e)).kind).toBe('invalid');
    });
  });
});

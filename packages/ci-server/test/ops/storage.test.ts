// Storage backends against real servers: the BlobStorage contract on a folder and on a real S3-compatible
// server (s3rver on loopback, official AWS SDK), and a control plane whose CI_CONFIG chooses S3: artifacts
// and caches land in the bucket, `download=true` answers presigned URLs that fetch the exact bytes (an
// expired one is refused), and a backend stored through /api/v1/admin/storage is the one opened at start.
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStorage } from '../../src/blobs/blob-storage.js';
import { FilesystemStorage } from '../../src/blobs/filesystem-storage.js';
import { S3Storage } from '../../src/blobs/s3-storage.js';
import type { CiServer } from '../../src/index.js';
import { applyAndGetPipelines, client } from '../api-helpers.js';
import { PIPELINE } from '../execution-data/fixture.js';
import { startTestCiServer } from '../helpers.js';
import { startTestS3, type TestS3 } from './s3-server.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function* once(data: Buffer): AsyncGenerator<Uint8Array> {
  yield data;
}
async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(parts);
}

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3.close());

describe.each(['filesystem', 's3'] as const)('BlobStorage contract on %s', (kind) => {
  let storage: BlobStorage;
  beforeAll(() => {
    storage =
      kind === 'filesystem'
        ? new FilesystemStorage(tempDir('blobs-'))
        : new S3Storage({
            bucket: s3.bucket,
            endpoint: s3.endpoint,
            region: 'us-east-1',
            prefix: `contract-${Date.now()}/`,
            forcePathStyle: true,
            accessKeyId: 'S3RVER',
            secretAccessKey: 'S3RVER',
          });
  });

  it('puts, opens, reads and deletes blobs, also by prefix', async () => {
    const data = Buffer.from('x'.repeat(300_000));
    await storage.putBuffer('logs/r1/a.gz', data);
    const local = join(tempDir('blob-src-'), 'f.bin');
    writeFileSync(local, Buffer.from('file body'));
    await storage.putFile('logs/r1/b.gz', local);
    expect(existsSync(local)).toBe(false);
    await storage.putBuffer('logs/r2/c.gz', Buffer.from('other'));

    const opened = await storage.open('logs/r1/a.gz');
    expect(opened?.size).toBe(data.length);
    expect((await readAll(opened!.stream())).equals(data)).toBe(true);
    expect((await storage.read('logs/r1/b.gz'))?.toString()).toBe('file body');
    expect(await storage.open('logs/none')).toBeUndefined();
    expect(await storage.read('logs/none')).toBeUndefined();

    expect(await storage.deletePrefix('logs/r1/')).toBe(2);
    expect(await storage.read('logs/r1/a.gz')).toBeUndefined();
    expect((await storage.read('logs/r2/c.gz'))?.toString()).toBe('other');
    await storage.delete('logs/r2/c.gz');
    await storage.delete('logs/r2/c.gz');
    expect(await storage.read('logs/r2/c.gz')).toBeUndefined();
    await expect(storage.open('../etc/passwd')).rejects.toThrow(/invalid storage key/);
  });
});

describe('a control plane on the S3 backend', () => {
  let server: CiServer;
  let api: ReturnType<typeof client>;
  let compile: string;
  let runId: string;
  beforeAll(async () => {
    server = await startTestCiServer({
      CI_DATABASE_URL: `sqlite:${tempDir('ci-s3-')}/ci.db`,
      CI_AUTH_ENABLED: 'false',
      CI_CONFIG: s3.configFile(),
    });
    api = client(server);
    const pipelines = await applyAndGetPipelines(api, 'shop', [PIPELINE]);
    const res = await api.post(`/api/v1/pipelines/${pipelines.build}/trigger`);
    runId = res.body.run_id;
    const job = await server.database.db
      .selectFrom('job_runs' as any)
      .select('id')
      .where('run_id', '=', runId)
      .where('name', '=', 'compile')
      .executeTakeFirstOrThrow();
    compile = (job as { id: string }).id;
  });
  afterAll(() => server.close());

  it('opens the backend CI_CONFIG names and reports it', async () => {
    expect(server.execution.storage.kind).toBe('s3');
    const res = await api.get('/api/v1/admin/storage');
    expect(res.body).toMatchObject({ backend: 's3', source: 'config', restart_required: false });
    expect(res.body.s3).toMatchObject({ bucket: s3.bucket, prefix: 'ci/', secret_access_key_set: true });
  });

  it('keeps artifacts in the bucket and answers presigned download URLs', async () => {
    const data = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    const stored = await server.execution.artifacts.storeArtifact(
      { jobRunId: compile, path: 'dist/app.bin', sizeBytes: data.length, contentSha256: sha(data) },
      once(data),
    );
    expect(await s3.keys('ci/artifacts/')).toEqual([`ci/artifacts/${runId}/${stored.id}`]);
    expect(existsSync(join(server.settings.dataDir, 'artifacts'))).toBe(false);

    const listed = await api.get(`/api/v1/runs/${runId}/artifacts?download=true`);
    const url = new URL(listed.body.artifacts[0].download_url);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    expect(got.headers.get('content-disposition')).toContain('app.bin');

    // A URL signed ten minutes ago for five minutes has expired: the server refuses it.
    const stale = await getSignedUrl(
      s3.client,
      new GetObjectCommand({ Bucket: s3.bucket, Key: `ci/artifacts/${runId}/${stored.id}` }),
      { expiresIn: 300, signingDate: new Date(Date.now() - 600_000) },
    );
    expect((await fetch(stale)).status).toBe(403);

    // The server's own signed route streams the object too.
    const path = server.execution.signer.path(stored.id);
    const proxied = await server.app.inject({ method: 'GET', url: path });
    expect(proxied.statusCode).toBe(200);
    expect(proxied.rawPayload.equals(data)).toBe(true);
  });

  it('keeps cache entries in the bucket', async () => {
    const data = Buffer.from('node_modules archive');
    expect(await server.execution.caches.save('shop', 'deps-v1', once(data))).toEqual({ saved: true });
    expect((await s3.keys('ci/caches/')).length).toBe(1);
    const hit = await server.execution.caches.lookup('shop', 'deps-v1');
    expect(hit.found).toBe(true);
    if (hit.found) expect((await readAll(hit.open())).equals(data)).toBe(true);
  });
});

describe('a stored backend is applied at the next start', () => {
  it('switches from the folder to S3 after a restart', async () => {
    const dataDir = tempDir('ci-restart-');
    const env = {
      CI_DATA_DIR: dataDir,
      CI_DATABASE_URL: `sqlite:${dataDir}/ci.db`,
      CI_AUTH_ENABLED: 'false',
    };

    const first = await startTestCiServer(env);
    expect(first.execution.storage.kind).toBe('filesystem');
    const put = await client(first).call('PUT', '/api/v1/admin/storage', {
      backend: 's3',
      s3: {
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        prefix: 'moved/',
        access_key_id: 'S3RVER',
        secret_access_key: 'S3RVER',
      },
    });
    expect(put.status).toBe(200);
    expect(put.headers['x-service-restart-required']).toBe('true');
    await first.close();

    const second = await startTestCiServer(env);
    try {
      expect(second.execution.storage.kind).toBe('s3');
      const res = await client(second).get('/api/v1/admin/storage');
      expect(res.body).toMatchObject({ backend: 's3', source: 'stored', restart_required: false });
      await second.execution.storage.putBuffer('probe/x', Buffer.from('1'));
      expect(await s3.keys('moved/probe/')).toEqual(['moved/probe/x']);
    } finally {
      await second.close();
    }
  });
});

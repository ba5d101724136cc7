// A real S3-compatible server for the tests: `s3rver` (npm) on a free loopback port, over a throwaway folder,
// with one bucket created through the official AWS SDK. s3rver checks access keys and presigned-URL expiry
// but not SigV4 signature bytes (its authentication middleware says so), which docs/ci-operations.md records.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  client: S3Client;
  /** Keys in the bucket under `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  /** A CI_CONFIG file choosing this bucket as the storage backend (extra YAML appended). */
  configFile(extra?: string): string;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'ci-blobs'): Promise<TestS3> {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: tempDir('s3rver-') });
  const addr = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${addr.port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    client,
    async keys(prefix = '') {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) out.push(o.Key!);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    configFile(extra = '') {
      const file = join(tempDir('ci-config-'), 'ci.yaml');
      writeFileSync(
        file,
        [
          'storage:',
          '  backend: s3',
          '  s3:',
          `    bucket: ${bucket}`,
          `    endpoint: ${endpoint}`,
          '    prefix: ci/',
          '    access_key_id: S3RVER',
          '    secret_access_key: S3RVER',
          extra,
        ].join('\n'),
      );
      return file;
    },
    async close() {
      client.destroy();
      await server.close();
    },
  };
}

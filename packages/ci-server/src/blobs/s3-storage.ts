// The S3-compatible backend of BlobStorage (AWS S3, MinIO, Ceph RGW, Garage, …) through the official AWS SDK
// v3. Keys live under an optional prefix in one bucket. Uploads stream the local temporary file (the SDK's
// PutObject with a known length; blobs above 5 GiB would need multipart, which artifacts never reach by
// default), downloads stream, and `presignDownload` answers a presigned GET valid for the requested lifetime.
import { createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type BlobStorage, checkKey, type OpenedBlob } from './blob-storage.js';

export interface S3Settings {
  bucket: string;
  /** Endpoint of an S3-compatible server (`http://127.0.0.1:9000`); absent means AWS itself. */
  endpoint?: string;
  region: string;
  /** Key prefix inside the bucket (no leading slash; `ci/` keeps the control plane's objects together). */
  prefix: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most self-hosted servers need. */
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

export class S3Storage implements BlobStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where the API requires them: with the SDK's default (a CRC32 trailer on every
      // upload, sent as aws-chunked) many S3-compatible servers store the chunk framing as the object.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    });
  }

  private key(key: string): string {
    return `${this.settings.prefix}${checkKey(key)}`;
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const { size } = await stat(localPath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(key),
        Body: createReadStream(localPath, { highWaterMark: 1024 * 1024 }),
        ContentLength: size,
      }),
    );
    await unlink(localPath).catch(() => {});
  }

  async putBuffer(key: string, data: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key), Body: data }),
    );
  }

  async open(key: string): Promise<OpenedBlob | undefined> {
    const Key = this.key(key);
    let size: number;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key }));
      size = Number(head.ContentLength ?? 0);
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
    return {
      size,
      // The GET starts when the stream is first read, so an unread stream costs no request.
      stream: () =>
        Readable.from(
          (async function* (client: S3Client, bucket: string) {
            const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
            yield* got.Body as AsyncIterable<Uint8Array>;
          })(this.client, this.settings.bucket),
        ),
    };
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }),
      );
      return Buffer.from(await got.Body!.transformToByteArray());
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!prefix.endsWith('/')) throw new Error('a prefix ends with /');
    const Prefix = this.key(prefix);
    let removed = 0;
    // Listed and deleted 1,000 keys at a time (the API's page and batch size).
    for (;;) {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix, MaxKeys: 1000 }),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length === 0) return removed;
      await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: keys, Quiet: true } }),
      );
      removed += keys.length;
      if (!page.IsTruncated) return removed;
    }
  }

  async presignDownload(key: string, lifetimeS: number, filename: string): Promise<string> {
    const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(key),
        ResponseContentDisposition: `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        ResponseContentType: 'application/octet-stream',
      }),
      { expiresIn: lifetimeS },
    );
  }

  close(): void {
    this.client.destroy();
  }
}

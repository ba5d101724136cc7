// Artifacts kept by the control plane on local storage (`<CI_DATA_DIR>/artifacts/<run>/<artifact>`): an
// agent's upload is streamed to a temporary file, its size and SHA-256 checked against what the agent
// declared (a mismatch keeps nothing), then the row becomes `ready`. Downloads go through short-lived
// signed URLs (signing.ts) so a link can be handed to a browser or script without credentials.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { jobRunDisplayName } from '../domain/index.js';
import type { ExecutionDB } from '../store/execution-schema.js';
import { newId, nowIso } from '../store/ids.js';
import { BlobRejectedError, placeBlob, removeQuietly, writeTempBlob } from './blob-files.js';

/** Largest artifact accepted by default (10 GiB). */
export const DEFAULT_MAX_ARTIFACT_BYTES = 10 * 1024 ** 3;
export const MAX_ARTIFACT_PATH = 1_000;

export interface ArtifactHeaderInput {
  jobRunId: string;
  /** Path relative to the job's checkout, `/`-separated. */
  path: string;
  sizeBytes: number | bigint;
  /** 64 hex characters. */
  contentSha256: string;
}

/** What the API lists (spec's Artifact fields, `download_url` added by the route on request). */
export interface ArtifactView {
  id: string;
  run_id: string;
  job_run_id: string;
  job_name: string;
  path: string;
  size_bytes: number;
  status: string;
  content_sha256: string | null;
  created_at: string;
}

export interface ArtifactStoreOptions {
  db: Kysely<any>;
  /** The server's data directory; artifacts live under `<dataDir>/artifacts`. */
  dataDir: string;
  maxBytes?: number;
}

export class ArtifactStore {
  private readonly db: Kysely<ExecutionDB>;
  readonly root: string;
  private readonly maxBytes: number;

  constructor(options: ArtifactStoreOptions) {
    this.db = options.db as Kysely<ExecutionDB>;
    this.root = join(options.dataDir, 'artifacts');
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_ARTIFACT_BYTES;
  }

  /**
   * Checks a header before any data is read; throws `BlobRejectedError` (`invalid`, `not_found`,
   * `too_large`). `storeArtifact` calls it too; the agent endpoint may call it early to refuse at once.
   */
  async checkHeader(header: ArtifactHeaderInput): Promise<{ runId: string; jobName: string; size: number }> {
    const size = Number(header.sizeBytes);
    if (!Number.isSafeInteger(size) || size < 0)
      throw new BlobRejectedError('invalid', 'size_bytes must be a non-negative integer');
    if (size > this.maxBytes)
      throw new BlobRejectedError(
        'too_large',
        `artifact ${header.path} is larger than ${this.maxBytes} bytes`,
      );
    if (!/^[0-9a-f]{64}$/i.test(header.contentSha256))
      throw new BlobRejectedError('invalid', 'content_sha256 must be 64 hexadecimal characters');
    checkPath(header.path);
    const job = await this.db
      .selectFrom('job_runs')
      .select(['run_id', 'name', 'matrix'])
      .where('id', '=', header.jobRunId)
      .executeTakeFirst();
    if (!job) throw new BlobRejectedError('not_found', `job run ${header.jobRunId} does not exist`);
    return { runId: job.run_id, jobName: jobRunDisplayName(job.name, parseMatrix(job.matrix)), size };
  }

  /**
   * Stores one artifact: streams `chunks` to a temporary file, verifies the declared size and SHA-256,
   * moves it into place and records it `ready`. A second upload of the same path by the same job run
   * replaces the first. Throws `BlobRejectedError` (`mismatch` when the data is not what was declared);
   * nothing is kept then.
   */
  async storeArtifact(header: ArtifactHeaderInput, chunks: AsyncIterable<Uint8Array>): Promise<ArtifactView> {
    const { runId, jobName, size } = await this.checkHeader(header);
    const expectedSha = header.contentSha256.toLowerCase();
    const blob = await writeTempBlob(chunks, join(this.root, '.tmp'), size).catch((err: unknown) => {
      // More bytes than declared is a mismatch, noticed before the excess reaches the disk.
      if (err instanceof BlobRejectedError && err.kind === 'too_large')
        throw new BlobRejectedError(
          'mismatch',
          `artifact ${header.path}: received more than the declared ${size} bytes`,
        );
      throw err;
    });
    if (blob.sizeBytes !== size || blob.sha256 !== expectedSha) {
      await removeQuietly(blob.tempPath);
      throw new BlobRejectedError(
        'mismatch',
        blob.sizeBytes !== size
          ? `artifact ${header.path}: received ${blob.sizeBytes} bytes, the header declared ${size}`
          : `artifact ${header.path}: SHA-256 of the received bytes is ${blob.sha256}, the header declared ${expectedSha}`,
      );
    }
    const id = newId();
    const storageKey = `${runId}/${id}`;
    try {
      await placeBlob(blob.tempPath, join(this.root, storageKey));
    } catch (err) {
      await removeQuietly(blob.tempPath);
      throw err;
    }
    const row = {
      id,
      run_id: runId,
      job_run_id: header.jobRunId,
      job_name: jobName,
      path: header.path,
      size_bytes: size,
      status: 'ready',
      content_sha256: expectedSha,
      storage_key: storageKey,
      created_at: nowIso(),
      expires_at: null,
    };
    let replaced: { storage_key: string | null }[] = [];
    try {
      replaced = await this.db.transaction().execute(async (trx) => {
        const old = await trx
          .deleteFrom('artifacts')
          .where('job_run_id', '=', header.jobRunId)
          .where('path', '=', header.path)
          .returning('storage_key')
          .execute();
        await trx.insertInto('artifacts').values(row).execute();
        return old;
      });
    } catch (err) {
      // The job run went away meanwhile (project deleted): keep no orphan file.
      await removeQuietly(join(this.root, storageKey));
      throw err;
    }
    for (const old of replaced) if (old.storage_key) await removeQuietly(join(this.root, old.storage_key));
    return toView(row);
  }

  /** The run's artifacts, by job then path. */
  async listRunArtifacts(runId: string): Promise<ArtifactView[]> {
    const rows = await this.db
      .selectFrom('artifacts')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toView);
  }

  /** The stored file of a ready artifact, or undefined when it does not exist (any more). */
  async open(
    artifactId: string,
  ): Promise<{ artifact: ArtifactView; size: number; stream: () => Readable } | undefined> {
    const row = await this.db
      .selectFrom('artifacts')
      .selectAll()
      .where('id', '=', artifactId)
      .executeTakeFirst();
    if (row?.status !== 'ready' || !row.storage_key) return undefined;
    const file = join(this.root, row.storage_key);
    const info = await stat(file).catch(() => undefined);
    if (!info) return undefined;
    return {
      artifact: toView(row),
      size: info.size,
      stream: () => createReadStream(file, { highWaterMark: 256 * 1024 }),
    };
  }
}

function checkPath(path: string): void {
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_ARTIFACT_PATH)
    throw new BlobRejectedError('invalid', `artifact path must be 1 to ${MAX_ARTIFACT_PATH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  if (/[\u0000-\u001f\u007f]/.test(path) || path.startsWith('/') || path.split(/[\\/]/).includes('..'))
    throw new BlobRejectedError(
      'invalid',
      `artifact path ${JSON.stringify(path)} must be relative to the checkout`,
    );
}

function parseMatrix(text: string): Record<string, string> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

function toView(row: {
  id: string;
  run_id: string;
  job_run_id: string;
  job_name: string;
  path: string;
  size_bytes: number | string;
  status: string;
  content_sha256: string | null;
  created_at: string;
}): ArtifactView {
  return {
    id: row.id,
    run_id: row.run_id,
    job_run_id: row.job_run_id,
    job_name: row.job_name,
    path: row.path,
    // bigint columns come back as strings from PostgreSQL.
    size_bytes: Number(row.size_bytes),
    status: row.status,
    content_sha256: row.content_sha256,
    created_at: row.created_at,
  };
}

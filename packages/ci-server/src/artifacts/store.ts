// Artifacts kept by the control plane on its storage backend (key `artifacts/<run>/<artifact>`; a folder or
// an S3 bucket, storage/): an agent's upload is streamed to a local temporary file, its size and SHA-256
// checked against what the agent declared (a mismatch keeps nothing), handed to the backend, then the row
// becomes `ready` (with `expires_at` from the job's `artifacts.expire_in`, which the retention sweeper applies). Downloads go through short-lived
// signed URLs (signing.ts) so a link can be handed to a browser or script without credentials.
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStorage } from '../blobs/blob-storage.js';
import { FilesystemStorage } from '../blobs/filesystem-storage.js';
import { jobRunDisplayName } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import { newId } from '../store/ids.js';
import { BlobRejectedError, removeQuietly, writeTempBlob } from './blob-files.js';

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
  db: StoreDb;
  /** The server's data directory: temporary upload files live under `<dataDir>/tmp`. */
  dataDir: string;
  /** Where finished artifacts are kept (key `artifacts/<storage_key>`). */
  storage: BlobStorage;
  maxBytes?: number;
}

export class ArtifactStore {
  private readonly db: StoreDb;
  private readonly tmpDir: string;
  readonly storage: BlobStorage;
  private readonly maxBytes: number;

  /** The folder of the blobs when the backend is a folder ('' on S3): what operators and tests look at. */
  get root(): string {
    return this.storage instanceof FilesystemStorage ? join(this.storage.root, 'artifacts') : '';
  }

  constructor(options: ArtifactStoreOptions) {
    this.db = options.db;
    this.tmpDir = join(options.dataDir, 'tmp', 'artifacts');
    this.storage = options.storage;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_ARTIFACT_BYTES;
  }

  /**
   * Checks a header before any data is read; throws `BlobRejectedError` (`invalid`, `not_found`,
   * `too_large`). `storeArtifact` calls it too; the agent endpoint may call it early to refuse at once.
   */
  async checkHeader(
    header: ArtifactHeaderInput,
  ): Promise<{ runId: string; jobName: string; size: number; expireInMs: number | null }> {
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
      .innerJoin('runs', 'runs.id', 'job_runs.run_id')
      .innerJoin('pipeline_versions', 'pipeline_versions.id', 'runs.version_id')
      .select(['job_runs.run_id', 'job_runs.name', 'job_runs.matrix', 'pipeline_versions.definition'])
      .where('job_runs.id', '=', header.jobRunId)
      .executeTakeFirst();
    if (!job) throw new BlobRejectedError('not_found', `job run ${header.jobRunId} does not exist`);
    return {
      runId: job.run_id,
      jobName: jobRunDisplayName(job.name, parseMatrix(job.matrix)),
      size,
      expireInMs: expireInOf(job.definition, job.name),
    };
  }

  /**
   * Stores one artifact: streams `chunks` to a temporary file, verifies the declared size and SHA-256,
   * moves it into place and records it `ready`. A second upload of the same path by the same job run
   * replaces the first. Throws `BlobRejectedError` (`mismatch` when the data is not what was declared);
   * nothing is kept then.
   */
  async storeArtifact(header: ArtifactHeaderInput, chunks: AsyncIterable<Uint8Array>): Promise<ArtifactView> {
    const { runId, jobName, size, expireInMs } = await this.checkHeader(header);
    const expectedSha = header.contentSha256.toLowerCase();
    const blob = await writeTempBlob(chunks, this.tmpDir, size).catch((err: unknown) => {
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
      await this.storage.putFile(`artifacts/${storageKey}`, blob.tempPath);
    } catch (err) {
      await removeQuietly(blob.tempPath);
      throw err;
    }
    const createdAt = new Date();
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
      created_at: createdAt.toISOString(),
      expires_at: expireInMs === null ? null : new Date(createdAt.getTime() + expireInMs).toISOString(),
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
      await this.storage.delete(`artifacts/${storageKey}`).catch(() => {});
      throw err;
    }
    for (const old of replaced)
      if (old.storage_key) await this.storage.delete(`artifacts/${old.storage_key}`).catch(() => {});
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
  ): Promise<
    { artifact: ArtifactView; storageKey: string; size: number; stream: () => Readable } | undefined
  > {
    const row = await this.db
      .selectFrom('artifacts')
      .selectAll()
      .where('id', '=', artifactId)
      .executeTakeFirst();
    if (row?.status !== 'ready' || !row.storage_key) return undefined;
    const blob = await this.storage.open(`artifacts/${row.storage_key}`);
    if (!blob) return undefined;
    return { artifact: toView(row), storageKey: `artifacts/${row.storage_key}`, ...blob };
  }

  /** Like open(), for an artifact of a run of the given project only (undefined otherwise). */
  async openInProject(artifactId: string, projectId: string): ReturnType<ArtifactStore['open']> {
    const owned = await this.db
      .selectFrom('artifacts as a')
      .innerJoin('runs as r', 'r.id', 'a.run_id')
      .select('a.id')
      .where('a.id', '=', artifactId)
      .where('r.project_id', '=', projectId)
      .executeTakeFirst();
    return owned ? this.open(artifactId) : undefined;
  }

  /** A presigned URL of the artifact's blob when the backend gives one (S3), else undefined. */
  async presign(artifactId: string, lifetimeS: number): Promise<string | undefined> {
    if (this.storage.kind === 'filesystem') return undefined;
    const row = await this.db
      .selectFrom('artifacts')
      .select(['storage_key', 'path', 'status'])
      .where('id', '=', artifactId)
      .executeTakeFirst();
    if (row?.status !== 'ready' || !row.storage_key) return undefined;
    const name = row.path.split('/').pop() || 'artifact';
    return this.storage.presignDownload(`artifacts/${row.storage_key}`, lifetimeS, name);
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

/** The job's `artifacts.expire_in` (milliseconds) in the pipeline version the run executes, or null. */
function expireInOf(definition: string, jobName: string): number | null {
  try {
    const doc = JSON.parse(definition) as { jobs?: Record<string, { artifacts?: { expire_in?: unknown } }> };
    const value = doc.jobs?.[jobName]?.artifacts?.expire_in;
    return typeof value === 'number' && value > 0 ? value : null;
  } catch {
    return null;
  }
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

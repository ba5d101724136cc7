// The one interface artifacts, caches and archived logs are kept behind: a flat key space of immutable
// blobs (`artifacts/<run>/<id>`, `caches/<project>/<id>`, `logs/<run>/<job run>.jsonl.gz`). Two backends
// implement it: a folder on this host (filesystem-storage.ts, the default) and an S3-compatible bucket
// (s3-storage.ts). Callers write a complete local temporary file first (size and SHA-256 are checked on it),
// then hand it over with `putFile`, so a half-written blob is never visible under its key.
import type { Readable } from 'node:stream';

export type StorageKind = 'filesystem' | 's3';

export interface OpenedBlob {
  size: number;
  /** The blob's bytes; each call opens a new stream. */
  stream: () => Readable;
}

export interface BlobStorage {
  readonly kind: StorageKind;
  /** Moves (filesystem) or uploads (S3) a complete local file to `key`; the local file is gone afterwards. */
  putFile(key: string, localPath: string): Promise<void>;
  /** Writes a small blob from memory. */
  putBuffer(key: string, data: Buffer): Promise<void>;
  /** The blob, or undefined when it does not exist. */
  open(key: string): Promise<OpenedBlob | undefined>;
  /** Reads a whole blob into memory (archived logs); undefined when it does not exist. */
  read(key: string): Promise<Buffer | undefined>;
  /** Removes a blob; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with `prefix` (which ends with `/`); answers how many. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * A URL that downloads the blob without credentials for `lifetimeS` seconds, when the backend can give one
   * (S3 presigned GET); undefined means the control plane serves the bytes itself behind its own signed link.
   */
  presignDownload(key: string, lifetimeS: number, filename: string): Promise<string | undefined>;
}

/** Keys are built by the server only, but a key is still checked: no absolute paths, no `..`, no NUL. */
export function checkKey(key: string): string {
  if (
    key.length === 0 ||
    key.length > 1024 ||
    key.startsWith('/') ||
    key.includes('\u0000') ||
    key.split('/').some((part) => part === '..' || part === '.')
  )
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return key;
}

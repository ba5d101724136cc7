// Writing an uploaded blob to local storage: streamed to a temporary file in the same directory tree while
// its size and SHA-256 are computed, then renamed into place only when it is complete (and, for artifacts,
// matches what the agent declared). A refused or failed upload leaves nothing behind.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { openSpoolFile } from '@app/kit';

export type BlobErrorKind = 'invalid' | 'not_found' | 'too_large' | 'mismatch';

/** An upload the server refuses; `kind` maps to a gRPC code (InvalidArgument, NotFound, ResourceExhausted, DataLoss). */
export class BlobRejectedError extends Error {
  override name = 'BlobRejectedError';
  constructor(
    readonly kind: BlobErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface WrittenBlob {
  tempPath: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Streams `chunks` into a new temporary file under `tmpDir`. Stops with `too_large` as soon as more than
 * `maxBytes` arrived (the temporary file is removed). The caller renames or discards the result.
 */
export async function writeTempBlob(
  chunks: AsyncIterable<Uint8Array>,
  tmpDir: string,
  maxBytes: number,
): Promise<WrittenBlob> {
  mkdirSync(tmpDir, { recursive: true });
  const tempPath = join(tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
  const out = openSpoolFile(tempPath, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of chunks) {
      if (chunk.byteLength === 0) continue;
      size += chunk.byteLength;
      if (size > maxBytes)
        throw new BlobRejectedError('too_large', `the upload is larger than ${maxBytes} bytes`);
      hash.update(chunk);
      // Respect the disk's pace: a fast sender waits rather than filling memory.
      await out.write(chunk);
    }
    await out.finish();
    return { tempPath, sizeBytes: size, sha256: hash.digest('hex') };
  } catch (err) {
    await out.discard();
    throw err;
  }
}

export async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => {});
}

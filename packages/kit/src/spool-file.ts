// A file written chunk by chunk (an export spool, an upload's temporary blob) that can never raise an
// uncaught exception. A `fs.WriteStream` destroyed while one of its writes is still in flight reports that
// write's failure (ERR_STREAM_DESTROYED) as an 'error' event after the caller has stopped listening; with no
// listener Node turns it into an uncaught exception and the process dies. So the stream keeps one error
// listener for its whole life, and `discard()` waits for the stream to close before removing the file.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';

export interface SpoolFile {
  readonly path: string;
  /** Bytes the file system has accepted so far. */
  readonly bytesWritten: number;
  /** Writes one chunk, waiting for the disk when the stream's buffer is full; rejects once the stream failed. */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Flushes and closes the file; rejects when any write failed. */
  finish(): Promise<void>;
  /** Stops writing, waits for writes in flight to settle, closes and removes the file. Never rejects. */
  discard(): Promise<void>;
}

export interface SpoolOptions {
  /** Bytes buffered before `write` waits for the disk (the stream's highWaterMark). */
  highWaterMark?: number;
  mode?: number;
  /** `wx` refuses an existing file (temporary names that must be new). */
  flags?: 'w' | 'wx';
}

export function openSpoolFile(path: string, options: SpoolOptions = {}): SpoolFile {
  const out = createWriteStream(path, {
    flags: options.flags ?? 'w',
    mode: options.mode ?? 0o600,
    ...(options.highWaterMark ? { highWaterMark: options.highWaterMark } : {}),
  });
  let failure: Error | undefined;
  // The listener that outlives every caller: the first error is kept and reported by the next call.
  out.on('error', (err) => {
    failure ??= err;
  });
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));

  /** Resolves on 'drain'; rejects when the stream closes first (it failed or was discarded). */
  const drained = () =>
    new Promise<void>((resolve, reject) => {
      const onDrain = () => {
        out.off('close', onClose);
        resolve();
      };
      const onClose = () => {
        out.off('drain', onDrain);
        reject(failure ?? new Error(`${path} was closed while writing`));
      };
      out.once('drain', onDrain);
      out.once('close', onClose);
    });

  return {
    path,
    get bytesWritten() {
      return out.bytesWritten;
    },
    async write(chunk) {
      if (failure) throw failure;
      if (out.destroyed) throw new Error(`${path} is closed`);
      if ((typeof chunk === 'string' ? chunk.length : chunk.byteLength) === 0) return;
      if (!out.write(chunk)) await drained();
    },
    async finish() {
      if (failure) throw failure;
      out.end();
      await closed;
      if (failure) throw failure;
    },
    async discard() {
      out.destroy();
      await closed;
      await rm(path, { force: true }).catch(() => {});
    },
  };
}

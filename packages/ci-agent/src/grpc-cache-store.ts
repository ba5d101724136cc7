// The executor's CacheStore backed by the control plane (DownloadCache / UploadCache), so every agent of
// the fleet shares a project's caches. Entries are scoped by project on the server, which also refuses a
// project the agent runs no job of. A download streams into the destination file; an unknown key is an
// empty stream. Failures reach the executor, which treats cache problems as warnings.
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { AgentConnection } from './connection.js';
import type { CacheRef, CacheStore } from './executor/cache-store.js';

const CHUNK = 256 * 1024;
const RETRY_MS = 30_000;

export class GrpcCacheStore implements CacheStore {
  constructor(private readonly connection: AgentConnection) {}

  private key(ref: CacheRef) {
    return { projectSlug: ref.project, key: ref.key };
  }

  async has(ref: CacheRef): Promise<boolean> {
    return this.connection.call(
      async (options) => {
        const abort = new AbortController();
        const stream = this.connection.client.downloadCache(this.key(ref), {
          ...options,
          signal: abort.signal,
        });
        try {
          for await (const _ of stream) return true;
          return false;
        } finally {
          abort.abort();
        }
      },
      RETRY_MS,
      0,
    );
  }

  async download(ref: CacheRef, destFile: string): Promise<boolean> {
    return this.connection.call(
      async (options) => {
        let found = false;
        const client = this.connection.client;
        const key = this.key(ref);
        async function* data() {
          for await (const message of client.downloadCache(key, options)) {
            if (message.kind.case === 'header') found = true;
            else if (message.kind.case === 'data') {
              found = true;
              yield message.kind.value;
            }
          }
        }
        try {
          await pipeline(data(), createWriteStream(destFile));
        } catch (err) {
          await rm(destFile, { force: true });
          throw err;
        }
        if (!found) await rm(destFile, { force: true });
        return found;
      },
      RETRY_MS,
      0,
    );
  }

  async upload(ref: CacheRef, srcFile: string): Promise<void> {
    const key = this.key(ref);
    await this.connection.call(
      async (options) => {
        async function* messages() {
          yield { kind: { case: 'header' as const, value: key } };
          for await (const chunk of createReadStream(srcFile, { highWaterMark: CHUNK }))
            yield { kind: { case: 'data' as const, value: chunk as Buffer } };
        }
        return this.connection.client.uploadCache(messages(), options);
      },
      RETRY_MS,
      0,
    );
  }
}

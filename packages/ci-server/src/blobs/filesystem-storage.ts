// The filesystem backend of BlobStorage: each key is a file under one root folder (CI_DATA_DIR by default,
// so `artifacts/` and `caches/` keep the layout earlier versions used). A put is a rename of a temporary
// file in the same file system (atomic); across file systems it falls back to copy-then-rename.
import { createReadStream, mkdirSync } from 'node:fs';
import { copyFile, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type BlobStorage, checkKey, type OpenedBlob } from './blob-storage.js';

export class FilesystemStorage implements BlobStorage {
  readonly kind = 'filesystem' as const;

  constructor(readonly root: string) {}

  private path(key: string): string {
    return join(this.root, checkKey(key));
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.path(key);
    mkdirSync(dirname(target), { recursive: true });
    try {
      await rename(localPath, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      const temp = `${target}.part`;
      await copyFile(localPath, temp);
      await rename(temp, target);
      await unlink(localPath).catch(() => {});
    }
  }

  async putBuffer(key: string, data: Buffer): Promise<void> {
    const target = this.path(key);
    mkdirSync(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.part`;
    await writeFile(temp, data, { mode: 0o600 });
    await rename(temp, target);
  }

  async open(key: string): Promise<OpenedBlob | undefined> {
    const file = this.path(key);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return { size: info.size, stream: () => createReadStream(file, { highWaterMark: 256 * 1024 }) };
  }

  async read(key: string): Promise<Buffer | undefined> {
    return readFile(this.path(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
  }

  async delete(key: string): Promise<void> {
    await unlink(this.path(key)).catch(() => {});
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!prefix.endsWith('/')) throw new Error('a prefix ends with /');
    const folder = this.path(prefix.slice(0, -1));
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) return 0;
    const count = (await readdir(folder, { recursive: true, withFileTypes: true })).filter((e) =>
      e.isFile(),
    ).length;
    await rm(folder, { recursive: true, force: true });
    return count;
  }

  async presignDownload(): Promise<string | undefined> {
    return undefined;
  }
}

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cacheEntryName,
  collectArtifacts,
  createWorkspace,
  LocalCacheStore,
  resolveCacheKey,
  shouldCollectArtifacts,
  workspacePath,
} from '../../src/index.js';
import { scratchDir } from './helpers.js';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('artifacts', () => {
  it('collects directories recursively and globs, with exact size and SHA-256', async () => {
    const dir = scratchDir('art-');
    mkdirSync(join(dir, 'dist', 'deep'), { recursive: true });
    const bin = Buffer.alloc(70_000, 7);
    writeFileSync(join(dir, 'dist', 'app.bin'), bin);
    writeFileSync(join(dir, 'dist', 'deep', 'x.txt'), 'x');
    writeFileSync(join(dir, 'report.log'), 'log');
    writeFileSync(join(dir, 'other.txt'), 'no');
    const { artifacts, warnings } = await collectArtifacts(dir, ['dist/', '*.log', 'missing/']);
    expect(
      artifacts.map(({ path, size_bytes, content_sha256 }) => ({ path, size_bytes, content_sha256 })),
    ).toEqual([
      { path: 'dist/app.bin', size_bytes: 70_000, content_sha256: sha(bin) },
      { path: 'dist/deep/x.txt', size_bytes: 1, content_sha256: sha('x') },
      { path: 'report.log', size_bytes: 3, content_sha256: sha('log') },
    ]);
    expect(readFileSync(artifacts[0].absolutePath)).toEqual(bin);
    expect(warnings).toEqual(['no file matches artifact path missing/']);
  });

  it('never collects anything outside the checkout', async () => {
    const dir = scratchDir('art-');
    const secretFile = join(scratchDir('art-outside-'), 'secret.txt');
    writeFileSync(secretFile, 'top secret');
    mkdirSync(join(dir, 'out'));
    symlinkSync(secretFile, join(dir, 'out', 'leak.txt'));
    writeFileSync(join(dir, 'out', 'ok.txt'), 'ok');
    const { artifacts, warnings } = await collectArtifacts(dir, ['out/', '../*', '/etc/passwd']);
    expect(artifacts.map((a) => a.path)).toEqual(['out/ok.txt']);
    expect(warnings).toEqual([
      'artifact path ../* is outside the checkout; ignored',
      'artifact path /etc/passwd is outside the checkout; ignored',
      'artifact out/leak.txt links outside the checkout; skipped',
    ]);
  });

  it('honours `when`', () => {
    expect(shouldCollectArtifacts('on_success', true)).toBe(true);
    expect(shouldCollectArtifacts('on_success', false)).toBe(false);
    expect(shouldCollectArtifacts('on_failure', false)).toBe(true);
    expect(shouldCollectArtifacts('on_failure', true)).toBe(false);
    expect(shouldCollectArtifacts('always', false)).toBe(true);
  });
});

describe('cache keys and the local store', () => {
  it('resolves {{ hash "file" }} to the SHA-256 of the file in the checkout', async () => {
    const dir = scratchDir('cache-');
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.lock'), 'b');
    const h = sha('{"lockfileVersion":3}');
    expect(await resolveCacheKey('npm-{{ hash "package-lock.json" }}', dir)).toBe(`npm-${h}`);
    expect(await resolveCacheKey('x-{{hash \'sub/b.lock\'}}-{{ hash "package-lock.json" }}', dir)).toBe(
      `x-${sha('b')}-${h}`,
    );
    expect(await resolveCacheKey('plain-key', dir)).toBe('plain-key');
    await expect(resolveCacheKey('{{ hash "nope.lock" }}', dir)).rejects.toThrow(
      'cache key file nope.lock does not exist in the checkout',
    );
    await expect(resolveCacheKey('{{ hash "../../etc/passwd" }}', dir)).rejects.toThrow(
      'outside the checkout',
    );
    await expect(resolveCacheKey('{{ env "HOME" }}', dir)).rejects.toThrow('unknown cache key template');
  });

  it('stores entries per project under names that cannot escape the directory', async () => {
    const root = scratchDir('cache-store-');
    const store = new LocalCacheStore(join(root, 'cache'));
    const src = join(root, 'a.tar.gz');
    writeFileSync(src, 'archive-1');
    const ref = { project: 'shop', key: '../../evil/key' };
    expect(cacheEntryName(ref)).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.download(ref, join(root, 'none'))).toBe(false);
    await store.upload(ref, src);
    expect(await store.has(ref)).toBe(true);
    expect(await store.has({ project: 'other', key: ref.key })).toBe(false);
    writeFileSync(src, 'archive-2');
    await store.upload(ref, src); // an existing key is never replaced
    expect(await store.download(ref, join(root, 'out'))).toBe(true);
    expect(readFileSync(join(root, 'out'), 'utf8')).toBe('archive-1');
  });
});

describe('workspaces', () => {
  it('creates a fresh directory per job run attempt and refuses unsafe ids', async () => {
    const workdir = scratchDir('ws-');
    const ws = createWorkspace(workdir, 'run-1', 2);
    expect(ws.root).toBe(join(workdir, 'jobs', 'run-1-2'));
    writeFileSync(join(ws.checkout, 'leftover'), 'x');
    const again = createWorkspace(workdir, 'run-1', 2);
    expect(existsSync(join(again.checkout, 'leftover'))).toBe(false);
    await again.remove();
    expect(existsSync(ws.root)).toBe(false);
    expect(() => workspacePath(workdir, '../escape', 1)).toThrow('invalid job run id');
    expect(() => workspacePath(workdir, 'a/b', 1)).toThrow('invalid job run id');
  });
});

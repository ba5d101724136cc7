// openSpoolFile: a spool discarded with a write in flight raises nothing (no uncaught ERR_STREAM_DESTROYED),
// waits for the stream to close and removes the file; a finished spool holds every byte; and the crash
// handlers both services install log and exit 1.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSpoolFile } from '../src/spool-file.js';

const dir = mkdtempSync(join(tmpdir(), 'spool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lets every pending fs callback and nextTick run, so a late stream error would surface. */
async function settle() {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 20));
}

describe('openSpoolFile', () => {
  it('writes every chunk in order and finishes', async () => {
    const path = join(dir, 'whole.txt');
    const spool = openSpoolFile(path, { highWaterMark: 16 });
    for (let i = 0; i < 100; i++) await spool.write(`line ${i}\n`);
    await spool.finish();
    const text = readFileSync(path, 'utf8').split('\n');
    expect(text[0]).toBe('line 0');
    expect(text[99]).toBe('line 99');
    expect(spool.bytesWritten).toBe(readFileSync(path).byteLength);
  });

  it('discards with writes in flight without an uncaught error, many times over', async () => {
    const escaped: unknown[] = [];
    const onUncaught = (err: unknown) => escaped.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const big = Buffer.alloc(4 * 1024 * 1024, 97);
      for (let i = 0; i < 40; i++) {
        const path = join(dir, `broken-${i}.csv`);
        const spool = openSpoolFile(path, { highWaterMark: 1024 });
        // The first write waits for the file to open, so the next one reaches the file system (an fs.write in
        // flight) rather than the stream's buffer: destroying the stream then is what used to throw.
        await spool.write('head\n');
        // Not awaited: the write is still in flight when the spool is discarded, as when an export's query
        // fails between two batches.
        const pending = spool.write(big).catch((err: unknown) => err);
        await spool.discard();
        await pending;
        expect(existsSync(path)).toBe(false);
        await expect(spool.write('more')).rejects.toThrow();
      }
      await settle();
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(escaped).toEqual([]);
  });

  it('reports a failing file system through write or finish, never as an uncaught error', async () => {
    const spool = openSpoolFile(join(dir, 'missing-folder', 'x.csv'));
    await expect(
      (async () => {
        await spool.write('a');
        await spool.finish();
      })(),
    ).rejects.toThrow(/ENOENT/);
    await spool.discard();
  });
});

describe('installCrashHandlers', () => {
  it('logs an uncaught exception and an unhandled rejection with context and exits 1', () => {
    for (const fault of [
      'setTimeout(() => { throw new Error("boom-sync"); })',
      'Promise.reject(new Error("boom-async"))',
    ]) {
      const script = `
        import { installCrashHandlers } from '${join(process.cwd(), 'packages/kit/src/app.ts')}';
        installCrashHandlers({ fatal: (o, m) => console.log(JSON.stringify({ msg: m, err: String(o.err) })) });
        ${fault};
        setTimeout(() => console.log('still serving'), 2000);
      `;
      const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      });
      expect(res.status, res.stderr).toBe(1);
      expect(res.stdout).toMatch(/boom-(sync|async)/);
      expect(res.stdout).toMatch(/exiting so the supervisor restarts/);
      expect(res.stdout).not.toMatch(/still serving/);
    }
  });
});

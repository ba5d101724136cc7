import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { CheckoutError, checkout, hostEnv, redactUrl } from '../../src/index.js';
import { startGitHttpServer } from './git-http-server.js';
import { git, makeRepo, scratchDir } from './helpers.js';

describe('checkout', () => {
  const repo = makeRepo([{ 'a.txt': 'first\n' }, { 'a.txt': 'second\n' }, { 'a.txt': 'third\n' }]);

  it('checks out a specific older revision from a file:// repository', async () => {
    const dir = scratchDir('co-');
    const notes: string[] = [];
    const res = await checkout({
      url: repo.url,
      revision: repo.commits[1],
      dir,
      env: hostEnv(),
      note: (t) => notes.push(t),
    });
    expect(res.commit).toBe(repo.commits[1]);
    expect(res.fullFetch).toBe(false);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('second\n');
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(repo.commits[1]);
    expect(existsSync(join(dir, '.git', 'FETCH_HEAD'))).toBe(false);
    expect(notes.join('\n')).toContain(repo.commits[1]);
  });

  it('falls back to a full fetch when the server refuses fetch-by-sha', async () => {
    const dir = scratchDir('co-');
    // Protocol v0 refuses wants of unadvertised objects (the first commit is no ref tip).
    const env = {
      ...hostEnv(),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'protocol.version',
      GIT_CONFIG_VALUE_0: '0',
    };
    const res = await checkout({ url: repo.url, revision: repo.commits[0], dir, env });
    expect(res).toEqual({ commit: repo.commits[0], fullFetch: true });
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('first\n');
  });

  it('resolves a branch name when no commit id is given', async () => {
    const dir = scratchDir('co-');
    const res = await checkout({ url: repo.url, revision: '', branch: 'main', dir, env: hostEnv() });
    expect(res.commit).toBe(repo.commits[2]);
  });

  it('says clearly when the revision does not exist', async () => {
    const missing = 'deadbeef'.repeat(5);
    await expect(
      checkout({ url: repo.url, revision: missing, dir: scratchDir('co-'), env: hostEnv() }),
    ).rejects.toThrow(`revision ${missing} does not exist in ${repo.url}`);
    await expect(
      checkout({ url: repo.url, revision: 'no-such-branch', dir: scratchDir('co-'), env: hostEnv() }),
    ).rejects.toThrow('revision no-such-branch does not exist');
  });

  it('never reveals credentials of the URL', async () => {
    const port = await freePort();
    const url = `http://ci-user:hunter2-token@127.0.0.1:${port}/repo.git`;
    expect(redactUrl(url)).toBe(`http://127.0.0.1:${port}/repo.git`);
    const notes: string[] = [];
    const err = await checkout({
      url,
      revision: repo.commits[0],
      dir: scratchDir('co-'),
      env: hostEnv(),
      note: (t) => notes.push(t),
    }).catch((e) => e);
    expect(err).toBeInstanceOf(CheckoutError);
    expect(String(err.message)).not.toContain('hunter2');
    expect(notes.join('\n')).not.toContain('hunter2');
    expect(String(err.message)).toContain(`127.0.0.1:${port}`);
  });

  it('checks out over smart HTTP with credentials that end up nowhere on disk or in the log', async () => {
    const auth = { user: 'ci-bot', password: 'pa55-w0rd-token' };
    const server = await startGitHttpServer(dirname(repo.dir), auth);
    try {
      const dir = scratchDir('co-');
      const notes: string[] = [];
      const url = server.urlFor(repo.dir, auth);
      const res = await checkout({
        url,
        revision: repo.commits[1],
        dir,
        env: hostEnv(),
        note: (t) => notes.push(t),
      });
      expect(res).toEqual({ commit: repo.commits[1], fullFetch: false });
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('second\n');
      expect(server.authHeaders.length).toBeGreaterThan(0);
      const gitDir = join(dir, '.git');
      const config = readFileSync(join(gitDir, 'config'), 'utf8');
      expect(config).toContain(server.urlFor(repo.dir));
      for (const text of [
        config,
        notes.join('\n'),
        ...readdirSync(gitDir)
          .filter((f) => f.endsWith('HEAD'))
          .map((f) => readFileSync(join(gitDir, f), 'utf8')),
      ]) {
        expect(text).not.toContain(auth.password);
      }

      // Wrong credentials: a clear failure, still without the password.
      const bad = server.urlFor(repo.dir, { user: 'ci-bot', password: 'wrong-secret' });
      const err = await checkout({
        url: bad,
        revision: repo.commits[1],
        dir: scratchDir('co-'),
        env: hostEnv(),
      }).catch((e) => e);
      expect(err).toBeInstanceOf(CheckoutError);
      expect(err.message).not.toContain('wrong-secret');
      expect(err.message).toMatch(/fetching http:\/\/127\.0\.0\.1:\d+\/\S+ failed/);
    } finally {
      await server.close();
    }
  });

  it('stops git when canceled', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(
      checkout({
        url: repo.url,
        revision: repo.commits[0],
        dir: scratchDir('co-'),
        env: hostEnv(),
        signal: ac.signal,
      }),
    ).rejects.toThrow('canceled');
  });
});

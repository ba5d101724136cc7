// The control plane's own git calls: `git ls-remote` for a branch head (polling, run-all, cron) and a shallow
// fetch into a bare cache under CI_DATA_DIR/materials to read a new commit's author and message. Credentials
// travel through GIT_ASKPASS and the environment (never the command line, a URL or a log line); prompts are
// off, only ordinary transports are allowed (no `ext::`), and every call has a timeout and a bounded output.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_FILE } from '../domain/index.js';

export interface GitCredentials {
  username: string;
  password: string;
}

export interface CommitInfo {
  revision: string;
  author: string | null;
  message: string | null;
  committed_at: string | null;
}

export class GitError extends Error {
  override name = 'GitError';
}

/** Longest commit message kept with a modification. */
const MESSAGE_MAX = 4096;
const OUTPUT_MAX = 4 * 1024 * 1024;
const ASKPASS = `#!/bin/sh
case "$1" in
  [Uu]sername*) printf '%s\\n' "$CI_GIT_USERNAME" ;;
  *) printf '%s\\n' "$CI_GIT_PASSWORD" ;;
esac
`;

/** Removes credentials a URL may carry, and known secret values, from text meant for logs or responses. */
export function scrub(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out;
}

export class GitRunner {
  private readonly askpass: string;

  constructor(
    /** CI_DATA_DIR/materials: the askpass helper and one bare cache per material. */
    private readonly dir: string,
    private readonly timeoutMs = 60_000,
  ) {
    this.askpass = join(dir, 'askpass.sh');
  }

  private ensureDir(): void {
    if (!existsSync(this.dir)) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if (!existsSync(this.askpass)) writeFileSync(this.askpass, ASKPASS, { mode: 0o700 });
  }

  /** Runs git; rejects with a GitError whose message is free of credentials. */
  run(args: string[], opts: { cwd?: string; credentials?: GitCredentials | null } = {}): Promise<string> {
    this.ensureDir();
    const creds = opts.credentials ?? null;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: 'C',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh',
      GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    if (creds) {
      env.GIT_ASKPASS = this.askpass;
      env.CI_GIT_USERNAME = creds.username;
      env.CI_GIT_PASSWORD = creds.password;
    }
    // No credential helper of the host may answer (or store) for us.
    const full = ['-c', 'credential.helper=', ...args];
    const secrets = creds ? [creds.password] : [];
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        full,
        { cwd: opts.cwd, env, timeout: this.timeoutMs, maxBuffer: OUTPUT_MAX, killSignal: 'SIGKILL' },
        (err, stdout, stderr) => {
          if (err) {
            const detail = scrub(String(stderr || err.message).trim(), secrets).slice(0, 1000);
            const what = (err as { killed?: boolean }).killed
              ? `timed out after ${this.timeoutMs} ms`
              : detail;
            reject(new GitError(`git ${args[0]} failed: ${what}`));
            return;
          }
          resolve(String(stdout));
        },
      );
    });
  }

  /** Runs git inside the material's bare cache (created by fetchHead). */
  inCache(cacheName: string, args: string[], credentials?: GitCredentials | null): Promise<string> {
    return this.run(args, { cwd: join(this.dir, `${cacheName}.git`), credentials });
  }

  /** The commit a branch points at on the remote, or null when the branch does not exist there. */
  async lsRemote(url: string, branch: string, credentials?: GitCredentials | null): Promise<string | null> {
    checkUrl(url);
    const ref = `refs/heads/${branch}`;
    const out = await this.run(['ls-remote', '--heads', url, ref], { credentials });
    for (const line of out.split('\n')) {
      const [sha, name] = line.trim().split(/\s+/);
      if (name === ref && /^[0-9a-f]{40,64}$/.test(sha ?? '')) return sha;
    }
    return null;
  }

  /**
   * Fetches the branch head (depth 1) into the material's bare cache and reads its metadata. The revision is
   * the one fetched, which may be newer than what ls-remote saw a moment before.
   */
  async fetchHead(
    cacheName: string,
    url: string,
    branch: string,
    credentials?: GitCredentials | null,
  ): Promise<CommitInfo> {
    checkUrl(url);
    this.ensureDir();
    const cache = join(this.dir, `${cacheName}.git`);
    if (!existsSync(join(cache, 'HEAD'))) await this.run(['init', '--bare', '--quiet', cache]);
    await this.run(
      ['fetch', '--depth=1', '--no-tags', '--quiet', url, `+refs/heads/${branch}:refs/ci/head`],
      { cwd: cache, credentials },
    );
    const out = await this.run(['log', '-1', '--format=%H%x00%an <%ae>%x00%cI%x00%B', 'refs/ci/head'], {
      cwd: cache,
    });
    const [revision, author, committed, ...rest] = out.split('\u0000');
    const message = rest.join('\u0000').trim();
    return {
      revision: revision.trim(),
      author: author || null,
      committed_at: committed ? new Date(committed).toISOString() : null,
      message: message ? message.slice(0, MESSAGE_MAX) : null,
    };
  }
}

/** Pipeline files of a repository folder at one commit (pipelines as code, triggers/config-repo.ts). */
export interface ConfigFolder {
  revision: string;
  files: { name: string; content: string }[];
  /** False when the folder (or single file) does not exist at that commit. */
  found: boolean;
}

export const CONFIG_FILES_MAX = 200;
export const CONFIG_FILE_BYTES = 1024 * 1024;

/**
 * Reads the `.yaml`/`.yml` files directly inside `path` (or `path` itself when it names one file), and our
 * bundle file at the repository root when there is one, at the branch head, or at `revision` when the host
 * serves that commit, through the material's bare cache.
 */
export async function readConfigFolder(
  git: GitRunner,
  cacheName: string,
  source: { url: string; branch: string; path: string; revision?: string | null },
  credentials?: GitCredentials | null,
): Promise<ConfigFolder> {
  const info = await git.fetchHead(cacheName, source.url, source.branch, credentials);
  let rev = info.revision;
  if (source.revision && source.revision !== rev) {
    // A push older than the head: read that commit when the host lets us fetch it by id.
    const fetched = await git
      .inCache(
        cacheName,
        ['fetch', '--depth=1', '--no-tags', '--quiet', source.url, source.revision],
        credentials,
      )
      .then(() => true)
      .catch(() => false);
    if (fetched) rev = source.revision;
  }
  const single = /\.ya?ml$/i.test(source.path);
  const listing = await git.inCache(cacheName, [
    'ls-tree',
    '-l',
    rev,
    '--',
    single ? source.path : `${source.path}/`,
    BUNDLE_FILE,
  ]);
  const files: ConfigFolder['files'] = [];
  let found = false;
  for (const line of listing.split('\n')) {
    const m = /^(\d+) (\w+) ([0-9a-f]+)\s+(-|\d+)\t(.+)$/.exec(line);
    if (!m) continue;
    found = true;
    const [, , type, object, size, name] = m;
    if (type !== 'blob' || !/\.ya?ml$/i.test(name) || files.some((f) => f.name === name)) continue;
    if (files.length >= CONFIG_FILES_MAX)
      throw new GitError(`${source.path} holds more than ${CONFIG_FILES_MAX} pipeline files`);
    if (Number(size) > CONFIG_FILE_BYTES)
      throw new GitError(`${name} is larger than ${CONFIG_FILE_BYTES} bytes`);
    files.push({ name, content: await git.inCache(cacheName, ['cat-file', 'blob', object]) });
  }
  return { revision: rev, files, found };
}

/** A URL that starts like an option would be read as one by git. */
function checkUrl(url: string): void {
  if (url.trim().startsWith('-')) throw new GitError(`"${url}" is not a repository URL`);
}

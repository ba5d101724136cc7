// Real git repositories for the trigger tests: bare repositories with a working clone to commit from, served
// as file:// URLs and over loopback HTTP by `git http-backend` behind a small Node server that demands Basic
// authentication (so SCM credentials are exercised for real).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Ada Lovelace',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada Lovelace',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(args: string[], cwd?: string): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
}

export interface Repo {
  /** The bare repository (what remotes point at). */
  bare: string;
  fileUrl: string;
  /** Commits a change on `branch` and pushes it; returns the new commit id. */
  commit(message: string, branch?: string): string;
  head(branch?: string): string;
}

/** A bare repository `<name>.git` under `root` with one commit on main. */
export function createRepo(root: string, name: string): Repo {
  const bare = join(root, `${name}.git`);
  git(['init', '--bare', '--quiet', '--initial-branch=main', bare]);
  const work = tempDir(`work-${name}-`);
  git(['init', '--quiet', '--initial-branch=main', work]);
  git(['remote', 'add', 'origin', bare], work);
  let n = 0;
  const repo: Repo = {
    bare,
    fileUrl: `file://${bare}`,
    commit(message, branch = 'main') {
      const current = git(['symbolic-ref', '--short', 'HEAD'], work);
      if (current !== branch) {
        const exists = git(['branch', '--list', branch], work) !== '';
        git(exists ? ['checkout', '--quiet', branch] : ['checkout', '--quiet', '-b', branch], work);
      }
      n++;
      writeFileSync(join(work, 'file.txt'), `${name} change ${n}\n`);
      git(['add', 'file.txt'], work);
      git(['commit', '--quiet', '-m', message], work);
      git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], work);
      return git(['rev-parse', 'HEAD'], work);
    },
    head(branch = 'main') {
      return git(['rev-parse', `refs/heads/${branch}`], bare);
    },
  };
  repo.commit('initial commit');
  return repo;
}

export interface GitHttpServer {
  url: string;
  /** Requests that arrived without valid credentials. */
  refused: number;
  close(): Promise<void>;
}

/**
 * Serves every repository under `root` at http://127.0.0.1:<port>/<name>.git through `git http-backend`
 * (CGI), for a client that sends Basic credentials `username:password`.
 */
export async function startGitHttp(root: string, username: string, password: string): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const state = { refused: 0 };
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      state.refused++;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
      res.end('authentication required');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: username,
        REMOTE_ADDR: '127.0.0.1',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let sentHead = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (sentHead) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number.parseInt(v, 10);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      sentHead = true;
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => res.end());
    child.on('error', () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A directory for repositories. */
export function repoRoot(): string {
  const dir = tempDir('repos-');
  mkdirSync(dir, { recursive: true });
  return dir;
}

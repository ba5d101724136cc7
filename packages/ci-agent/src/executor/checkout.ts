// The git checkout of a job's revision into an empty directory: `git init`, a shallow fetch of exactly that
// commit (`git fetch --depth 1 <url> <sha>`), falling back to a full fetch of branches and tags when the
// server refuses requests for unadvertised objects (protocol v0 servers without allowReachableSHA1InWant),
// then `git checkout --detach`. Credentials in the URL never reach the log, an error message, `.git/config`
// or `.git/FETCH_HEAD`.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnGroup, terminateGroup } from './process-group.js';

export class CheckoutError extends Error {
  override name = 'CheckoutError';
}

export interface CheckoutOptions {
  url: string;
  /** A full commit SHA, or a branch/tag name (fetched shallowly and resolved). Empty: `branch`. */
  revision: string;
  branch?: string;
  /** An existing empty directory. */
  dir: string;
  /** Environment for git (PATH, HOME, proxies, SSH agent). */
  env: Record<string, string>;
  signal?: AbortSignal;
  /** Progress notes for the job log (already free of credentials). */
  note?: (text: string) => void;
}

export interface CheckoutResult {
  /** The full SHA checked out. */
  commit: string;
  /** Whether the shallow fetch-by-SHA was refused and a full fetch was needed. */
  fullFetch: boolean;
}

/** How servers say they will not serve an unadvertised commit (or do not know it). */
const REFUSED_SHA =
  /not our ref|unadvertised object|does not allow request|couldn't find remote ref|no such remote ref|not valid|bad object|unable to find/i;

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

/** The URL without user name and password (scp-like `user@host:path` addresses are left alone). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/** The password in a repository URL (decoded), so the job's log masks it; undefined when there is none. */
export function repositoryPassword(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.password ? decodeURIComponent(u.password) : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the URL and its credentials wherever they appear in `text`. */
export function scrubCredentials(text: string, url: string): string {
  let out = text.split(url).join(redactUrl(url));
  try {
    const u = new URL(url);
    for (const part of [u.password, u.username]) {
      if (!part) continue;
      for (const form of new Set([part, decodeURIComponent(part)])) out = out.split(form).join('***');
    }
  } catch {
    // Not a URL: nothing more to remove.
  }
  return out;
}

interface GitOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

const MAX_CAPTURE = 16 * 1024;

function git(args: string[], opts: CheckoutOptions): Promise<GitOutcome> {
  if (opts.signal?.aborted) return Promise.reject(new CheckoutError('checkout canceled'));
  const env = {
    ...opts.env,
    GIT_TERMINAL_PROMPT: '0', // never wait for a password on a terminal nobody watches
    GIT_ASKPASS: 'true',
    LC_ALL: 'C',
  };
  // Own process group, so that canceling also stops git's helpers (remote-https, ssh, upload-pack).
  const proc = spawnGroup('git', ['-c', 'advice.detachedHead=false', ...args], { cwd: opts.dir, env });
  let stdout = '';
  let stderr = '';
  proc.child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    if (stdout.length < MAX_CAPTURE) stdout += c;
  });
  proc.child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    stderr = (stderr + c).slice(-MAX_CAPTURE);
  });
  const onAbort = () => void terminateGroup(proc.pid, 2_000);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // 'exit' can come before the last output chunk: wait for both pipes to end too (git leaves no background
  // process holding them, unlike a job script).
  const drained = (stream: NodeJS.ReadableStream) =>
    new Promise<void>((done) => {
      stream.once('end', done);
      stream.once('close', done);
      stream.once('error', () => done());
    });
  const outputs = Promise.all([drained(proc.child.stdout!), drained(proc.child.stderr!)]);
  return proc.exited
    .then((exit) => (exit.error ? exit : outputs.then(() => exit)))
    .then((exit) => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (exit.error) throw new CheckoutError(`cannot run git: ${exit.error.message}`);
      if (opts.signal?.aborted) throw new CheckoutError('checkout canceled');
      return { code: exit.code ?? 128, stdout, stderr };
    });
}

async function mustGit(args: string[], opts: CheckoutOptions, what: string): Promise<GitOutcome> {
  const out = await git(args, opts);
  if (out.code !== 0) {
    const detail = scrubCredentials(out.stderr.trim(), opts.url);
    throw new CheckoutError(`${what} failed (git exit ${out.code})${detail ? `: ${detail}` : ''}`);
  }
  return out;
}

export async function checkout(opts: CheckoutOptions): Promise<CheckoutResult> {
  const safeUrl = redactUrl(opts.url);
  const revision = opts.revision.trim() || (opts.branch ?? '').trim();
  if (!revision) throw new CheckoutError('no revision or branch to check out');
  // Neither may be taken for a git option.
  if (revision.startsWith('-')) throw new CheckoutError(`invalid revision: ${revision}`);
  if (!opts.url.trim() || opts.url.startsWith('-'))
    throw new CheckoutError(`invalid repository URL: ${safeUrl}`);
  opts.note?.(`checking out ${revision} from ${safeUrl}`);

  await mustGit(['-c', 'init.defaultBranch=main', 'init', '-q', '.'], opts, 'git init');
  // A credential-free origin lets scripts see where the code came from without exposing a token.
  await mustGit(['remote', 'add', 'origin', safeUrl], opts, 'git remote add');

  let commit: string;
  let fullFetch = false;
  if (FULL_SHA.test(revision)) {
    const shallow = await git(
      ['fetch', '--depth', '1', '--no-tags', '--no-progress', opts.url, revision],
      opts,
    );
    if (shallow.code !== 0 && !REFUSED_SHA.test(shallow.stderr)) {
      // Not a refusal of the commit id (authentication, network, no repository): the full fetch would fail
      // the same way.
      const detail = scrubCredentials(shallow.stderr.trim(), opts.url);
      throw new CheckoutError(
        `fetching ${safeUrl} failed (git exit ${shallow.code})${detail ? `: ${detail}` : ''}`,
      );
    }
    if (shallow.code !== 0) {
      fullFetch = true;
      opts.note?.('the server refused a fetch by commit id; fetching all branches and tags');
      await mustGit(
        [
          'fetch',
          '--no-tags',
          '--no-progress',
          opts.url,
          '+refs/heads/*:refs/remotes/origin/*',
          '+refs/tags/*:refs/tags/*',
        ],
        opts,
        `fetching ${safeUrl}`,
      );
    }
    const exists = await git(['cat-file', '-e', `${revision}^{commit}`], opts);
    if (exists.code !== 0) throw new CheckoutError(`revision ${revision} does not exist in ${safeUrl}`);
    commit = revision.toLowerCase();
  } else {
    // A branch or tag name: fetch its tip shallowly.
    const ref = await git(['fetch', '--depth', '1', '--no-tags', '--no-progress', opts.url, revision], opts);
    if (ref.code !== 0) {
      const detail = scrubCredentials(ref.stderr.trim(), opts.url);
      const missing = /couldn't find remote ref|not our ref|no such ref/i.test(detail);
      throw new CheckoutError(
        missing
          ? `revision ${revision} does not exist in ${safeUrl}`
          : `fetching ${revision} from ${safeUrl} failed (git exit ${ref.code})${detail ? `: ${detail}` : ''}`,
      );
    }
    commit = (await mustGit(['rev-parse', 'FETCH_HEAD^{commit}'], opts, 'git rev-parse')).stdout.trim();
  }

  await mustGit(['checkout', '-q', '--detach', commit], opts, `git checkout ${commit}`);
  // FETCH_HEAD records the URL as given, credentials included.
  rmSync(join(opts.dir, '.git', 'FETCH_HEAD'), { force: true });
  const head = (await mustGit(['rev-parse', 'HEAD'], opts, 'git rev-parse')).stdout.trim();
  opts.note?.(`checked out ${head}${fullFetch ? ' (full fetch)' : ''}`);
  return { commit: head, fullFetch };
}

/**
 * Material fingerprints: a stable hash of what a material watches, so that one webhook push finds every
 * pipeline that watches the same repository and branch.
 *
 * Git URLs are normalised before hashing: scheme and user are dropped, the host is lowercased, default
 * ports (http 80, https 443, ssh 22, git 9418) are dropped while other ports are kept (two servers on one
 * host are two repositories), a trailing `/` and `.git` are removed and repeated slashes collapsed. The
 * path keeps its case. `file://` URLs and bare absolute paths become `file:` plus the normalised path (a
 * `.git` suffix is kept there: `/srv/a.git` and `/srv/a` are different directories). Branches lose a
 * leading `refs/heads/`, so a push payload's `ref` matches a material's `branch`.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';

const DEFAULT_PORTS: Record<string, string> = {
  http: '80',
  https: '443',
  ssh: '22',
  'git+ssh': '22',
  git: '9418',
};
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i;
const SCP_LIKE = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.*)$/;

function cleanPath(path: string): string {
  let p = path.replace(/\/{2,}/g, '/').replace(/^\/+/, '');
  p = p.replace(/\/+$/, '');
  p = p.replace(/\.git$/, '');
  return p.replace(/\/+$/, '');
}

function filePath(path: string): string {
  let p = posix.normalize(decodeURIComponentSafe(path) || '/');
  if (p.length > 1) p = p.replace(/\/+$/, '');
  return `file:${p}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The canonical identity of a git URL (see the file header), e.g. `git.example.com/org/shop`. */
export function normaliseGitUrl(url: string): string {
  const raw = url.trim();
  if (raw.startsWith('/')) return filePath(raw);
  const withScheme = SCHEME.exec(raw);
  if (withScheme) {
    const scheme = withScheme[1].toLowerCase();
    const rest = withScheme[2];
    if (scheme === 'file') return filePath(rest.replace(/^[^/]*/, '') || '/');
    const slash = rest.indexOf('/');
    let authority = slash < 0 ? rest : rest.slice(0, slash);
    const path = slash < 0 ? '' : rest.slice(slash);
    authority = authority.slice(authority.lastIndexOf('@') + 1);
    let host = authority.toLowerCase();
    const port = /:(\d*)$/.exec(host);
    if (port) {
      host = host.slice(0, port.index);
      if (port[1] !== '' && DEFAULT_PORTS[scheme] !== port[1]) host = `${host}:${port[1]}`;
    }
    return `${host}/${cleanPath(path)}`;
  }
  const scp = SCP_LIKE.exec(raw);
  if (scp) return `${scp[1].toLowerCase()}/${cleanPath(scp[2])}`;
  return cleanPath(raw);
}

/** A branch name as a material declares it: `refs/heads/main` and `main` are the same branch. */
export function normaliseBranch(branch: string): string {
  return branch.trim().replace(/^refs\/heads\//, '');
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** sha256 hex of the normalised URL and branch. */
export function gitFingerprint(url: string, branch: string): string {
  return sha256(`git\n${normaliseGitUrl(url)}\n${normaliseBranch(branch)}`);
}

/** sha256 hex of an upstream material's identity: a stage of a pipeline of a project, and a status. */
export function upstreamFingerprint(
  projectSlug: string,
  pipeline: string,
  stage: string,
  status: string,
): string {
  return sha256(`upstream\n${projectSlug}\n${pipeline}\n${stage}\n${status}`);
}

/** sha256 hex of a cron material's identity: the expression with its whitespace collapsed. */
export function cronFingerprint(expression: string): string {
  return sha256(`cron\n${expression.trim().replace(/\s+/g, ' ')}`);
}

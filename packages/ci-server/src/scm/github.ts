// GitHub webhook payloads (github.com and GitHub Enterprise Server): `push` (branches, and tags through
// `refs/tags/…`), `pull_request` (opened, reopened, synchronize) and `ping`. A tag's `create` event is
// ignored because the same tag also arrives as a push. Field names follow GitHub's documented payloads.
import {
  clip,
  normaliseLabels,
  obj,
  type ParsedDelivery,
  PayloadError,
  pushedFiles,
  type RefChange,
  str,
  urls,
  ZERO_SHA,
} from './types.js';

const PR_ACTIONS = new Set(['opened', 'reopened', 'synchronize']);

function repository(payload: Record<string, unknown>) {
  const repo = obj(payload.repository);
  return {
    repository: str(repo.full_name),
    repositoryUrls: urls(repo.clone_url, repo.ssh_url, repo.html_url, repo.git_url, repo.svn_url),
  };
}

function person(v: unknown): string | null {
  const p = obj(v);
  const name = str(p.name);
  const email = str(p.email);
  if (name && email) return `${name} <${email}>`;
  return name ?? str(p.username) ?? email;
}

function push(payload: Record<string, unknown>, base: ParsedDelivery): ParsedDelivery {
  const ref = str(payload.ref);
  const after = str(payload.after);
  if (!ref || !after) throw new PayloadError('a push payload needs "ref" and "after"');
  if (payload.deleted === true || ZERO_SHA.test(after)) return { ...base, ignored: `${ref} was deleted` };
  const head = obj(payload.head_commit);
  const common = {
    message: clip(str(head.message)),
    author: person(head.author),
    committedAt: str(head.timestamp),
  };
  let change: RefChange;
  if (ref.startsWith('refs/heads/')) {
    const branch = ref.slice('refs/heads/'.length);
    const files = pushedFiles(payload.commits);
    change = { kind: 'push', branch, gitRef: branch, revision: after, ...common, files };
  } else if (ref.startsWith('refs/tags/')) {
    // `after` is the tag object for an annotated tag; head_commit is the commit it points to.
    change = {
      kind: 'tag',
      branch: null,
      gitRef: ref.slice('refs/tags/'.length),
      revision: str(head.id) ?? after,
      ...common,
    };
  } else {
    return { ...base, ignored: `pushes to ${ref} are not built` };
  }
  return { ...base, changes: [change] };
}

function pullRequest(payload: Record<string, unknown>, base: ParsedDelivery): ParsedDelivery {
  const action = str(payload.action) ?? '';
  const pr = obj(payload.pull_request);
  const number = pr.number ?? payload.number;
  const head = obj(pr.head);
  const baseRepo = str(obj(obj(pr.base).repo).full_name);
  const headRepo = str(obj(head.repo).full_name);
  const baseRef = str(obj(pr.base).ref);
  const sha = str(head.sha);
  if (typeof number !== 'number' || !baseRef || !sha)
    throw new PayloadError('a pull_request payload needs pull_request.number, base.ref and head.sha');
  if (!PR_ACTIONS.has(action)) return { ...base, ignored: `pull request action "${action}" is not built` };
  return {
    ...base,
    changes: [
      {
        kind: 'pull_request',
        branch: baseRef,
        gitRef: `refs/pull/${number}/head`,
        revision: sha,
        message: clip(str(pr.title)),
        author: str(obj(pr.user).login),
        committedAt: str(pr.updated_at),
        // GitHub's own test for "approve and run": the head repository is not the base repository.
        pullRequest: {
          fromFork:
            headRepo === null || baseRepo === null || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
          headRepository: headRepo,
          author: str(obj(pr.user).login),
          labels: normaliseLabels(Array.isArray(pr.labels) ? pr.labels.map((l) => obj(l).name) : []),
        },
      },
    ],
  };
}

export function parseGithub(event: string, payload: unknown): ParsedDelivery {
  const p = obj(payload);
  const base: ParsedDelivery = {
    event,
    ...repository(p),
    sender: str(obj(p.sender).login) ?? str(obj(p.pusher).name),
    changes: [],
    ignored: null,
  };
  switch (event) {
    case 'push':
      return push(p, base);
    case 'pull_request':
      return pullRequest(p, base);
    case 'ping':
      return { ...base, ignored: 'ping' };
    case 'create':
      return { ...base, ignored: 'create events are ignored: new tags and branches arrive as pushes' };
    default:
      return { ...base, ignored: `event "${event}" is not built` };
  }
}

// Bitbucket Cloud webhook payloads: `repo:push` (one delivery may carry several ref changes, branches and
// tags; closed refs are deletions) and `pullrequest:created` / `pullrequest:updated`. Bitbucket gives a pull
// request's source commit as an abbreviated hash and has no pull-request ref to fetch, so such runs record
// the source branch as git_ref. Field names follow Bitbucket Cloud's documented event payloads.
import { clip, obj, type ParsedDelivery, PayloadError, type RefChange, str, urls } from './types.js';

function repository(payload: Record<string, unknown>) {
  const repo = obj(payload.repository);
  const fullName = str(repo.full_name);
  const links = obj(repo.links);
  return {
    repository: fullName,
    repositoryUrls: urls(obj(links.html).href, fullName ? `https://bitbucket.org/${fullName}` : null),
  };
}

function push(p: Record<string, unknown>, base: ParsedDelivery): ParsedDelivery {
  const changes = obj(p.push).changes;
  if (!Array.isArray(changes)) throw new PayloadError('a repo:push payload needs push.changes');
  const out: RefChange[] = [];
  const skipped: string[] = [];
  for (const raw of changes.slice(0, 100)) {
    const change = obj(raw);
    const next = obj(change.new);
    const name = str(next.name);
    const target = obj(next.target);
    const hash = str(target.hash);
    if (change.closed === true || !name || !hash) {
      skipped.push(str(obj(change.old).name) ?? '?');
      continue;
    }
    const common = {
      revision: hash,
      message: clip(str(target.message)),
      author: str(obj(target.author).raw),
      committedAt: str(target.date),
    };
    if (next.type === 'branch') out.push({ kind: 'push', branch: name, gitRef: name, ...common });
    else if (next.type === 'tag') out.push({ kind: 'tag', branch: null, gitRef: name, ...common });
  }
  if (out.length === 0)
    return { ...base, ignored: skipped.length > 0 ? `deleted: ${skipped.join(', ')}` : 'no ref changes' };
  return { ...base, changes: out };
}

function pullRequest(p: Record<string, unknown>, base: ParsedDelivery): ParsedDelivery {
  const pr = obj(p.pullrequest);
  const source = obj(pr.source);
  const target = str(obj(obj(pr.destination).branch).name);
  const sourceBranch = str(obj(source.branch).name);
  const hash = str(obj(source.commit).hash);
  const sourceRepo = str(obj(source.repository).full_name);
  const targetRepo = str(obj(obj(pr.destination).repository).full_name);
  const author = obj(pr.author);
  if (!target || !sourceBranch || !hash)
    throw new PayloadError(
      'a pull request payload needs pullrequest.destination.branch.name, source.branch.name and source.commit.hash',
    );
  if (str(pr.state) !== null && pr.state !== 'OPEN')
    return { ...base, ignored: `pull request is ${String(pr.state).toLowerCase()}` };
  return {
    ...base,
    changes: [
      {
        kind: 'pull_request',
        branch: target,
        gitRef: sourceBranch,
        revision: hash,
        message: clip(str(pr.title)),
        author: str(obj(pr.author).display_name),
        committedAt: str(pr.updated_on),
        // A pull request from a fork names another source repository than its destination.
        pullRequest: {
          fromFork:
            sourceRepo === null ||
            targetRepo === null ||
            sourceRepo.toLowerCase() !== targetRepo.toLowerCase(),
          headRepository: sourceRepo,
          author: str(author.nickname) ?? str(author.account_id) ?? str(author.display_name),
          // Bitbucket Cloud pull requests have no labels: a gate's quorum_by_label never applies (as in gocdnext).
          labels: [],
        },
      },
    ],
  };
}

export function parseBitbucket(event: string, payload: unknown): ParsedDelivery {
  const p = obj(payload);
  const actor = obj(p.actor);
  const base: ParsedDelivery = {
    event,
    ...repository(p),
    sender: str(actor.nickname) ?? str(actor.display_name),
    changes: [],
    ignored: null,
  };
  switch (event) {
    case 'repo:push':
      return push(p, base);
    case 'pullrequest:created':
    case 'pullrequest:updated':
      return pullRequest(p, base);
    default:
      return { ...base, ignored: `event "${event}" is not built` };
  }
}

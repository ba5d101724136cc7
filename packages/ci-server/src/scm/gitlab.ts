// GitLab webhook payloads (gitlab.com and self-managed): `Push Hook`, `Tag Push Hook` and `Merge Request
// Hook` (open, reopen, and update when it brought new commits — `oldrev` present). Field names follow
// GitLab's documented webhook events; the event is also read from `object_kind` when the header and the
// body disagree in spelling ("System Hook" deliveries carry the same bodies).
import {
  clip,
  normaliseLabels,
  obj,
  type ParsedDelivery,
  PayloadError,
  pushedFiles,
  str,
  urls,
  ZERO_SHA,
} from './types.js';

function repository(payload: Record<string, unknown>) {
  const project = obj(payload.project);
  const repo = obj(payload.repository);
  return {
    repository: str(project.path_with_namespace) ?? str(repo.name),
    repositoryUrls: urls(
      project.git_http_url,
      project.git_ssh_url,
      project.web_url,
      project.http_url,
      project.ssh_url,
      repo.git_http_url,
      repo.git_ssh_url,
      repo.homepage,
      repo.url,
    ),
  };
}

function person(v: unknown): string | null {
  const p = obj(v);
  const name = str(p.name);
  const email = str(p.email);
  return name && email ? `${name} <${email}>` : (name ?? email);
}

function push(p: Record<string, unknown>, base: ParsedDelivery, tag: boolean): ParsedDelivery {
  const ref = str(p.ref);
  const after = str(p.after);
  if (!ref || !after) throw new PayloadError('a push payload needs "ref" and "after"');
  const checkout = str(p.checkout_sha);
  if (ZERO_SHA.test(after) || checkout === null) return { ...base, ignored: `${ref} was deleted` };
  const commits = Array.isArray(p.commits) ? p.commits.map(obj) : [];
  const head = commits.find((c) => c.id === checkout) ?? {};
  const common = {
    revision: checkout,
    message: clip(str(head.message) ?? str(p.message)),
    author: person(head.author) ?? str(p.user_name),
    committedAt: str(head.timestamp),
  };
  if (tag || ref.startsWith('refs/tags/')) {
    return {
      ...base,
      changes: [{ kind: 'tag', branch: null, gitRef: ref.replace(/^refs\/tags\//, ''), ...common }],
    };
  }
  if (!ref.startsWith('refs/heads/')) return { ...base, ignored: `pushes to ${ref} are not built` };
  const branch = ref.slice('refs/heads/'.length);
  const files = pushedFiles(p.commits, p.total_commits_count);
  return { ...base, changes: [{ kind: 'push', branch, gitRef: branch, ...common, files }] };
}

function mergeRequest(p: Record<string, unknown>, base: ParsedDelivery): ParsedDelivery {
  const attrs = obj(p.object_attributes);
  const action = str(attrs.action) ?? '';
  const iid = attrs.iid;
  const target = str(attrs.target_branch);
  const last = obj(attrs.last_commit);
  const sha = str(last.id);
  if (typeof iid !== 'number' || !target || !sha)
    throw new PayloadError(
      'a merge request payload needs object_attributes.iid, target_branch and last_commit.id',
    );
  const builds =
    action === 'open' || action === 'reopen' || (action === 'update' && str(attrs.oldrev) !== null);
  if (!builds) return { ...base, ignored: `merge request action "${action}" brings no new commits` };
  return {
    ...base,
    changes: [
      {
        kind: 'pull_request',
        branch: target,
        gitRef: `refs/merge-requests/${iid}/head`,
        revision: sha,
        message: clip(str(attrs.title) ?? str(last.message)),
        author: person(last.author) ?? str(obj(p.user).username),
        committedAt: str(last.timestamp),
        // A merge request from a fork has a source project other than its target project.
        pullRequest: {
          fromFork:
            typeof attrs.source_project_id !== 'number' ||
            attrs.source_project_id !== attrs.target_project_id,
          headRepository: str(obj(attrs.source).path_with_namespace),
          author: str(obj(p.user).username),
          // The merge request's labels as of this event (the payload's top-level list, by title).
          labels: normaliseLabels(Array.isArray(p.labels) ? p.labels.map((l) => obj(l).title) : []),
        },
      },
    ],
  };
}

export function parseGitlab(event: string, payload: unknown): ParsedDelivery {
  const p = obj(payload);
  const base: ParsedDelivery = {
    event,
    ...repository(p),
    sender: str(p.user_username) ?? str(obj(p.user).username) ?? str(p.user_name),
    changes: [],
    ignored: null,
  };
  const kind = str(p.object_kind);
  if (event === 'Push Hook' || kind === 'push') return push(p, base, false);
  if (event === 'Tag Push Hook' || kind === 'tag_push') return push(p, base, true);
  if (event === 'Merge Request Hook' || kind === 'merge_request') return mergeRequest(p, base);
  return { ...base, ignored: `event "${event}" is not built` };
}

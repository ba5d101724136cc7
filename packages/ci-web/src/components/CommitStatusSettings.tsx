// The project's commit-status reporting (GET/PUT/DELETE /api/v1/projects/{slug}/commit-status,
// docs/ci-commit-status.md): which forge its push and pull-request runs report to, with the API root,
// repository, Bitbucket username and status-name prefix. Viewers read it; maintainers turn it on, change it
// or turn it off. The token is write-only: the page says only whether one is set, and an empty token field
// keeps the stored one.
import { Button } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, api, apiGet, apiPut, enc } from '../api/client';
import { QueryView } from './QueryView';
import { ConfirmButton, ErrorNote, Notice, Time } from './ui';

type CommitStatus = Answer<'/api/v1/projects/{slug}/commit-status'>;
type Host = NonNullable<CommitStatus['host']>;

const HOSTS: { id: Host; label: string; api: string; repo: string }[] = [
  { id: 'github', label: 'GitHub', api: 'https://api.github.com', repo: 'owner/name' },
  { id: 'gitlab', label: 'GitLab', api: 'https://gitlab.com/api/v4', repo: 'group/project' },
  { id: 'bitbucket', label: 'Bitbucket Cloud', api: 'https://api.bitbucket.org/2.0', repo: 'workspace/name' },
];
const hostOf = (id: Host | null) => HOSTS.find((h) => h.id === id);

export function CommitStatusSettings({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  const q = useQuery({
    queryKey: ['commit-status', slug],
    queryFn: () => apiGet('/api/v1/projects/{slug}/commit-status', { params: { slug } }),
  });
  return (
    <QueryView query={q}>
      {(d) => (
        <>
          <CommitStatusFacts slug={slug} status={d} />
          {canEdit && <CommitStatusForm slug={slug} status={d} />}
        </>
      )}
    </QueryView>
  );
}

function CommitStatusFacts({ slug, status: s }: { slug: string; status: CommitStatus }) {
  const host = hostOf(s.host);
  if (!host)
    return (
      <p className="muted" data-testid="commit-status-state">
        Off: runs report no status to a forge.
      </p>
    );
  return (
    <dl className="facts" aria-label="Commit status">
      <div>
        <dt>Reports to</dt>
        <dd data-testid="commit-status-state">{host.label}</dd>
      </div>
      <div>
        <dt>API</dt>
        <dd className="mono small">{s.api_url}</dd>
      </div>
      <div>
        <dt>Repository</dt>
        <dd className="mono small">{s.repository ?? "from the pipeline's git material"}</dd>
      </div>
      <div>
        <dt>Status name</dt>
        <dd className="mono small">{`${s.context_prefix}/${slug}/<pipeline>`}</dd>
      </div>
      <div>
        <dt>Token</dt>
        <dd data-testid="commit-status-token">
          {s.has_token ? 'set' : 'not set (the SCM credential of the repository is used)'}
        </dd>
      </div>
      <div>
        <dt>Changed</dt>
        <dd>
          <Time at={s.updated_at} />
        </dd>
      </div>
    </dl>
  );
}

function CommitStatusForm({ slug, status: s }: { slug: string; status: CommitStatus }) {
  const client = useQueryClient();
  const path = `/api/v1/projects/${enc(slug)}/commit-status`;
  const [host, setHost] = useState<Host>(s.host ?? 'github');
  // The API root the server answers is its default when none was set: show that as the placeholder.
  const [apiUrl, setApiUrl] = useState(s.api_url && s.api_url !== hostOf(s.host)?.api ? s.api_url : '');
  const [repository, setRepository] = useState(s.repository ?? '');
  const [username, setUsername] = useState(s.username ?? '');
  const [prefix, setPrefix] = useState(s.context_prefix);
  const [token, setToken] = useState('');
  const [asking, setAsking] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: ['commit-status', slug] });
  const save = useMutation({
    mutationFn: () =>
      apiPut(
        '/api/v1/projects/{slug}/commit-status',
        {
          host,
          api_url: apiUrl.trim() || null,
          repository: repository.trim() || null,
          username: host === 'bitbucket' ? username.trim() || null : null,
          context_prefix: prefix.trim() || undefined,
          ...(token !== '' ? { token } : {}),
        },
        { params: { slug } },
      ),
    onSuccess: (saved) => {
      client.setQueryData(['commit-status', slug], saved);
      setToken('');
    },
  });
  const off = useMutation({
    mutationFn: () => api.del(path),
    onSuccess: () => {
      setAsking(false);
      save.reset();
      refresh();
    },
  });
  const chosen = hostOf(host)!;
  return (
    <form
      className="stack narrow"
      aria-label="Commit status settings"
      // An edit after a save: "Saved." no longer describes what the fields hold.
      onChange={() => save.isSuccess && save.reset()}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <label>
        Forge
        <select value={host} onChange={(e) => setHost(e.target.value as Host)}>
          {HOSTS.map((h) => (
            <option key={h.id} value={h.id}>
              {h.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        API root (optional)
        <input value={apiUrl} onChange={(e) => setApiUrl(e.target.value)} placeholder={chosen.api} />
      </label>
      <label>
        Repository (optional)
        <input
          value={repository}
          onChange={(e) => setRepository(e.target.value)}
          placeholder={`${chosen.repo} — default: from the git material`}
        />
      </label>
      {host === 'bitbucket' && (
        <label>
          Username (optional: an app password's account)
          <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
        </label>
      )}
      <label>
        Status name prefix
        <input value={prefix} onChange={(e) => setPrefix(e.target.value)} placeholder="ci/gocdnext" />
      </label>
      <label>
        Token {s.has_token ? '(set — leave empty to keep it)' : '(not set)'}
        <input
          type="password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          autoComplete="new-password"
          placeholder={s.has_token ? 'a new token replaces the stored one' : 'optional'}
        />
      </label>
      <ErrorNote error={save.error ?? off.error} title="The commit status settings were not changed" />
      {save.isSuccess && <Notice kind="success">Saved.</Notice>}
      <div className="row">
        <Button type="submit" busy={save.isPending}>
          {s.host ? 'Save commit status' : 'Turn on commit status'}
        </Button>
        {s.host && (
          <ConfirmButton
            label="Turn off"
            name="Turn off commit status"
            confirmLabel="Turn off and delete the token"
            asking={asking}
            busy={off.isPending}
            onAsk={() => setAsking(true)}
            onKeep={() => setAsking(false)}
            onConfirm={() => off.mutate()}
          />
        )}
      </div>
    </form>
  );
}

// Service tokens for bots (`/api/admin/service-tokens`): the live tokens, a form to create one (the `pst_`
// secret is shown once, right here), and revoke with a second click to confirm.
import { Button } from '@app/web-kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, apiGet, apiPost, errorText } from '../lib/api';
import type { Role, ServiceToken } from '../lib/types';

function CreateForm({ onCreated }: { onCreated: (name: string, secret: string) => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [datasources, setDatasources] = useState('');
  const [groups, setGroups] = useState('');
  const [requireApproval, setRequireApproval] = useState(false);
  const [trustedApprovals, setTrustedApprovals] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const list = (s: string) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem('Give the token a name.');
    setBusy(true);
    setProblem(null);
    try {
      const r = await apiPost('/api/admin/service-tokens', {
        name: name.trim(),
        role,
        ...(list(datasources).length ? { datasources: list(datasources) } : {}),
        ...(list(groups).length ? { groups: list(groups) } : {}),
        requireApproval,
        trustedApprovals,
      });
      onCreated(r.token.name, r.secret);
      setName('');
      setRole('user');
      setDatasources('');
      setGroups('');
      setRequireApproval(false);
      setTrustedApprovals(false);
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="token-form card" onSubmit={submit} aria-label="Create service token">
      <h3>New token</h3>
      <div className="form-row">
        <label>
          <span>Name</span>
          <input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          <span>Role</span>
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="user">user</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <label className="grow">
          <span>Datasources</span>
          <input
            placeholder="all the role may use, or ids separated by commas"
            value={datasources}
            onChange={(e) => setDatasources(e.target.value)}
          />
        </label>
        <label>
          <span>Groups</span>
          <input
            placeholder="optional, comma separated"
            value={groups}
            onChange={(e) => setGroups(e.target.value)}
          />
        </label>
      </div>
      <div className="form-row">
        <label className="check">
          <input
            type="checkbox"
            checked={requireApproval}
            onChange={(e) => setRequireApproval(e.target.checked)}
          />
          <span>Every request needs approval</span>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={trustedApprovals}
            onChange={(e) => setTrustedApprovals(e.target.checked)}
          />
          <span>Trusted approvals (the bot may declare reviewers)</span>
        </label>
        <span className="spacer" />
        <Button type="submit" variant="primary" disabled={busy}>
          Create token
        </Button>
      </div>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

function RevokeButton({ token, onDone }: { token: ServiceToken; onDone: (problem?: string) => void }) {
  const [confirm, setConfirm] = useState(false);
  const revoke = async () => {
    try {
      await api(`/api/admin/service-tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' });
      onDone();
    } catch (err) {
      onDone(errorText(err));
    }
  };
  return confirm ? (
    <span className="btn-group">
      <Button size="sm" variant="danger" onClick={revoke}>
        Confirm revoke
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setConfirm(false)}>
        Keep
      </Button>
    </span>
  ) : (
    <Button size="sm" aria-label={`Revoke ${token.name}`} onClick={() => setConfirm(true)}>
      Revoke
    </Button>
  );
}

export function ServiceTokens() {
  const qc = useQueryClient();
  const tokens = useQuery({
    queryKey: ['service-tokens'],
    queryFn: async () => (await apiGet('/api/admin/service-tokens')).tokens,
    staleTime: 0,
  });
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['service-tokens'] });
  const unavailable = tokens.error instanceof ApiError && tokens.error.code === 'STORAGE_UNAVAILABLE';

  return (
    <section aria-label="Service tokens">
      {unavailable ? (
        <p className="notice">Service tokens need server storage (STORAGE_PROVIDER sqlite or postgres).</p>
      ) : (
        <CreateForm
          onCreated={(name, secret) => {
            setCreated({ name, secret });
            void refresh();
          }}
        />
      )}
      {created && (
        <div className="alert alert-success secret-box" role="status" aria-label="New token secret">
          <strong>Token “{created.name}” created.</strong> Copy the secret now: it is not shown again.
          <div className="secret-row">
            <code data-testid="token-secret">{created.secret}</code>
            <Button
              size="sm"
              onClick={() => navigator.clipboard?.writeText(created.secret).catch(() => undefined)}
            >
              Copy
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      {tokens.isError && !unavailable && (
        <p className="error-text" role="alert">
          {errorText(tokens.error)}
        </p>
      )}
      <div className="grid-wrap">
        <table className="grid" aria-label="Service tokens">
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
              <th>Datasources</th>
              <th>Flags</th>
              <th>Prefix</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.data?.length === 0 && (
              <tr>
                <td colSpan={8} className="muted">
                  No live tokens.
                </td>
              </tr>
            )}
            {tokens.data?.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>
                  <span className={`badge role-${t.role}`}>{t.role}</span>
                </td>
                <td className="mono">{t.datasources ? t.datasources.join(', ') : 'all of the role'}</td>
                <td>
                  {t.requireApproval && <span className="badge approval">approval</span>}
                  {t.trustedApprovals && <span className="badge">trusted</span>}
                </td>
                <td className="mono muted">{t.prefix ?? ''}</td>
                <td className="nowrap">{new Date(t.created_at).toLocaleString()}</td>
                <td className="nowrap">
                  {t.last_used_at ? new Date(t.last_used_at).toLocaleString() : 'never'}
                </td>
                <td>
                  <RevokeButton
                    token={t}
                    onDone={(p) => {
                      setProblem(p ?? null);
                      void refresh();
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

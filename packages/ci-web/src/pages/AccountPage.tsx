// The signed-in user's account: who they are, a password change (local accounts), and personal API tokens —
// create (the secret is shown once, right after creation), list and revoke.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, apiGet, apiPost } from '../api/client';
import { Empty, ErrorNote, Notice, PageHeader, Time } from '../components/ui';
import { useSession } from '../lib/session';

const EXPIRIES = [
  { label: 'Never', days: 0 },
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
];

export function AccountPage() {
  const { user, anonymous } = useSession();
  return (
    <>
      <PageHeader
        title="Account"
        sub={`${user.username} · ${user.role}${user.email ? ` · ${user.email}` : ''}`}
      />
      {anonymous ? (
        <Notice>Authentication is disabled on this server, so there is no account to manage.</Notice>
      ) : (
        <>
          <PasswordForm />
          <TokensPanel />
        </>
      )}
    </>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () => api.post('/api/v1/me/password', { current_password: current, new_password: next }),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setRepeat('');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(next !== repeat);
    if (next === repeat) change.mutate();
  };
  return (
    <section className="panel" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <form className="stack narrow" onSubmit={submit}>
        <label>
          Current password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </label>
        <label>
          New password
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </label>
        <label>
          Repeat new password
          <input
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        </label>
        <p className="muted small">At least 12 characters. Your other sessions end; API tokens stay valid.</p>
        {mismatch && <ErrorNote error="The new passwords differ." />}
        <ErrorNote error={change.error} />
        {change.isSuccess && <Notice kind="success">Password changed.</Notice>}
        <div>
          <button type="submit" className="primary" disabled={change.isPending}>
            Change password
          </button>
        </div>
      </form>
    </section>
  );
}

function TokensPanel() {
  const client = useQueryClient();
  const tokens = useQuery({
    queryKey: ['api-tokens'],
    queryFn: () => apiGet('/api/v1/account/api-tokens'),
  });
  const [name, setName] = useState('');
  const [days, setDays] = useState(0);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      apiPost('/api/v1/account/api-tokens', {
        name: name.trim(),
        expires_at: days ? new Date(Date.now() + days * 86_400_000).toISOString() : null,
      }),
    onSuccess: (t) => {
      setSecret({ name: t.name, secret: t.secret });
      setCopied(false);
      setName('');
      client.invalidateQueries({ queryKey: ['api-tokens'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api.del(`/api/v1/account/api-tokens/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['api-tokens'] }),
  });
  const list = tokens.data?.tokens ?? [];
  return (
    <section className="panel" aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <p className="muted small">
        Use a token as <code>Authorization: Bearer &lt;token&gt;</code>. It acts with your current role.
      </p>
      <form
        className="row wrap"
        aria-label="Create an API token"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label className="inline grow">
          Token name
          <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="inline">
          Expires
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {EXPIRIES.map((x) => (
              <option key={x.days} value={x.days}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create token
        </button>
      </form>
      <ErrorNote error={create.error} />
      {secret && (
        <div className="secret-once" role="status" aria-label="New token secret">
          <p>
            <strong>Copy the token “{secret.name}” now.</strong> It is shown only this once.
          </p>
          <div className="row">
            <code className="secret" data-testid="token-secret">
              {secret.secret}
            </code>
            <button
              type="button"
              onClick={async () => {
                await navigator.clipboard?.writeText(secret.secret).catch(() => {});
                setCopied(true);
              }}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button type="button" className="ghost" onClick={() => setSecret(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={tokens.error ?? revoke.error} />
      {tokens.data && list.length === 0 && <Empty>No tokens.</Empty>}
      {list.length > 0 && (
        <table className="table compact" aria-label="API tokens">
          <thead>
            <tr>
              <th>Name</th>
              <th>Prefix</th>
              <th>Created</th>
              <th>Expires</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td className="mono">{t.prefix}…</td>
                <td>
                  <Time at={t.created_at} />
                </td>
                <td>{t.expires_at ? new Date(t.expires_at).toLocaleDateString() : 'never'}</td>
                <td>
                  <Time at={t.last_used_at} />
                </td>
                <td className="right">
                  <button
                    type="button"
                    aria-label={`Revoke token ${t.name}`}
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(t.id)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

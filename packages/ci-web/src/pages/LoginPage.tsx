// Sign-in: the local username/password form (when the server allows local accounts) and one button per
// identity provider, each a link to /auth/login/{name} that comes back to the page the user wanted.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiGet, apiPost, enc, query } from '../api/client';
import { asUser } from '../api/types';
import { ErrorNote, Loading } from '../components/ui';
import { navigate, safeNext, useLocation } from '../lib/router';
import { ME_KEY } from '../lib/session';

export function LoginPage() {
  const { search } = useLocation();
  const next = safeNext(search.get('next'));
  const client = useQueryClient();
  const providers = useQuery({
    queryKey: ['auth-providers'],
    queryFn: () => apiGet('/auth/providers'),
  });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const user = asUser(await apiPost('/auth/login/local', { username, password }, { quiet401: true }));
      client.clear();
      client.setQueryData(ME_KEY, user);
      navigate(next, { replace: true });
    } catch (err) {
      setError(err);
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  const list = providers.data?.providers ?? [];
  const local = list.some((p) => p.name === 'local');
  const external = list.filter((p) => p.name !== 'local');

  return (
    <main className="login">
      <section className="login-card" aria-labelledby="login-title">
        <div className="login-brand">
          <span className="brand-mark" aria-hidden="true" />
          <h1 id="login-title">Sign in to CI</h1>
        </div>
        {providers.isLoading && <Loading />}
        <ErrorNote error={providers.error} title="Cannot load sign-in options" />
        {local && (
          <form onSubmit={submit} className="stack">
            <label>
              Username
              <input
                name="username"
                autoComplete="username"
                required
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </label>
            <label>
              Password
              <input
                name="password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <ErrorNote error={error} />
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Signing in…' : 'Sign in'}
            </button>
          </form>
        )}
        {external.length > 0 && (
          <div className="stack providers">
            {local && <p className="divider muted">or</p>}
            {external.map((p) => (
              <a
                key={p.name}
                className="button"
                href={`/auth/login/${enc(p.name)}${query({ next: next === '/' ? undefined : next })}`}
              >
                Sign in with {p.display}
              </a>
            ))}
          </div>
        )}
        {providers.data && list.length === 0 && (
          <p className="muted">No sign-in method is configured on this server.</p>
        )}
      </section>
    </main>
  );
}

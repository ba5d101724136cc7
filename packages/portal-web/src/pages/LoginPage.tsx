// Sign-in: email and password (`POST /api/auth/login`), a six-digit code field once the server asks for the
// second factor (401 with `totpRequired`), the single sign-on button when `GET /api/auth/providers` says OIDC
// is on, and the message for an `?error=<code>` the OIDC callback sent the browser back with.
import { Button } from '@app/web-kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError, apiGet, apiPost, errorText } from '../lib/api';
import { navigate, useLocation } from '../lib/router';
import { fetchMe, landingFor, ME_KEY } from '../lib/session';

/** Messages for the `/login?error=` codes of docs/portal-auth.md. */
const LOGIN_ERRORS: Record<string, string> = {
  oidc_not_enabled: 'Single sign-on is not enabled on this portal.',
  provider_unavailable: 'The identity provider could not be reached. Try again shortly.',
  invalid_state: 'The sign-in attempt expired or was tampered with. Please start again.',
  access_denied: 'The identity provider denied the sign-in.',
  provider_error: 'The identity provider reported an error.',
  missing_code: 'The identity provider did not return an authorization code.',
  token_exchange_failed: 'The sign-in could not be verified with the identity provider.',
};

export function LoginPage() {
  const qc = useQueryClient();
  const { search } = useLocation();
  const providers = useQuery({
    queryKey: ['auth-providers'],
    queryFn: () => apiGet('/api/auth/providers', { quiet401: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const errorCode = search.get('error');
  const [message, setMessage] = useState<string | null>(
    errorCode ? (LOGIN_ERRORS[errorCode] ?? 'Sign-in failed.') : null,
  );
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needCode, setNeedCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const body: Record<string, string> = { email, password };
      if (needCode && code.trim()) body.code = code.trim();
      await apiPost('/api/auth/login', body, { quiet401: true });
      const me = await qc.fetchQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 0 });
      navigate(me.authenticated ? landingFor(me.user) : '/', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.body.totpRequired === true) {
        setNeedCode(true);
        setCode('');
        setTimeout(() => codeRef.current?.focus(), 0);
      }
      setMessage(errorText(err));
      setBusy(false);
    }
  };

  return (
    <div className="login-wrap">
      <main className="login-card">
        <h1>Database Portal</h1>
        <p className="muted">Sign in to browse and query your databases.</p>
        <p className="error-text" role="alert" aria-live="polite">
          {message ?? ''}
        </p>
        <form onSubmit={submit} noValidate aria-label="Sign in">
          <label htmlFor="login-email">Email</label>
          <input
            id="login-email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {needCode && (
            <>
              <label htmlFor="login-code">Two-factor code</label>
              <input
                id="login-code"
                ref={codeRef}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              />
            </>
          )}
          <Button type="submit" variant="primary" className="btn-block" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
        {providers.data?.oidc && (
          <>
            <div className="divider">or</div>
            <a className="kit-btn kit-btn--secondary btn-block" href="/api/auth/oidc/login">
              Sign in with single sign-on
            </a>
          </>
        )}
      </main>
    </div>
  );
}

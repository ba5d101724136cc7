// The app shell: decides between the sign-in page and the signed-in layout (top bar with navigation, the
// person and Sign out), and routes /, /approvals and /admin. The workspace stays mounted while another page
// is shown so the editor text and the last result survive a trip to the approvals page. The top bar also
// switches the light/dark theme (the web kit's) and opens the kit's keyboard-shortcuts help (also on "?").
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { InboxCount } from './governance/InboxCount';
import { apiPost, errorText, setUnauthorizedHandler } from './lib/api';
import { Link, navigate, Redirect, useLocation } from './lib/router';
import { landingFor, ME_KEY, useMe } from './lib/session';
import type { SessionUser } from './lib/types';
import { LoginPage } from './pages/LoginPage';

// Signed-in pages are their own chunks: the sign-in page loads only React and itself.
const WorkspacePage = lazy(() => import('./pages/WorkspacePage').then((m) => ({ default: m.WorkspacePage })));
const ApprovalsPage = lazy(() => import('./pages/ApprovalsPage').then((m) => ({ default: m.ApprovalsPage })));
const AdminPage = lazy(() => import('./pages/AdminPage').then((m) => ({ default: m.AdminPage })));
const MonitoringPage = lazy(() =>
  import('./pages/MonitoringPage').then((m) => ({ default: m.MonitoringPage })),
);

import { useShortcut, useTheme } from '@app/web-kit';
import { EditorShortcuts } from './shell/shortcuts';

export function App() {
  const qc = useQueryClient();
  const location = useLocation();
  const me = useMe();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      qc.setQueryData(ME_KEY, { authenticated: false });
      navigate('/login', { replace: true });
    });
  }, [qc]);

  if (me.isPending) return <div className="splash">Loading…</div>;
  if (me.isError) {
    return (
      <div className="splash">
        <p role="alert" className="error-text">
          {errorText(me.error)}
        </p>
        <button type="button" className="btn" onClick={() => me.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  const data = me.data;
  if (location.path === '/login') {
    return data.authenticated ? <Redirect to={landingFor(data.user)} /> : <LoginPage />;
  }
  if (!data.authenticated) return <Redirect to="/login" />;
  return <Shell user={data.user} path={location.path} />;
}

function Shell({ user, path }: { user: SessionUser; path: string }) {
  const [signingOut, setSigningOut] = useState(false);
  const { theme, setChoice } = useTheme();
  useShortcut('g w', 'Go to the workspace', () => navigate('/'), { group: 'Navigation' });
  useShortcut('g a', 'Go to approvals', () => navigate('/approvals'), { group: 'Navigation' });
  useShortcut('g d', 'Go to administration', () => navigate('/admin'), {
    group: 'Navigation',
    enabled: user.role === 'admin',
  });

  const signOut = async () => {
    setSigningOut(true);
    let redirectUrl: string | undefined;
    try {
      redirectUrl = (await apiPost('/api/auth/logout')).redirectUrl;
    } catch {
      // The cookie may already be gone; the login page is the right place either way.
    }
    // A full load drops every cached answer of the previous person.
    window.location.assign(redirectUrl ?? '/login');
  };
  const nav = [
    { href: '/', label: 'Workspace' },
    { href: '/approvals', label: 'Approvals' },
    { href: '/monitoring', label: 'Monitoring' },
    ...(user.role === 'admin' ? [{ href: '/admin', label: 'Admin' }] : []),
  ];
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Database Portal</span>
        <nav aria-label="Main">
          {nav.map((n) => (
            <Link key={n.href} href={n.href} className={path === n.href ? 'active' : undefined}>
              {n.label}
              {n.href === '/approvals' && <InboxCount username={user.username} />}
            </Link>
          ))}
        </nav>
        <span className="spacer" />
        <span className="who" title={`Signed in as ${user.username}`}>
          <span data-testid="username">{user.username}</span>
          <span className={`badge role-${user.role}`}>{user.role}</span>
        </span>
        <button
          type="button"
          className="btn btn-ghost"
          aria-label={theme === 'dark' ? 'Use light theme' : 'Use dark theme'}
          title="Switch theme"
          onClick={() => setChoice(theme === 'dark' ? 'light' : 'dark')}
        >
          {theme === 'dark' ? '☀' : '☾'}
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          // The kit's help dialog opens on "?" typed outside a text field.
          onClick={() => window.dispatchEvent(new KeyboardEvent('keydown', { key: '?' }))}
        >
          ?
        </button>
        <button type="button" className="btn btn-ghost" onClick={signOut} disabled={signingOut}>
          Sign out
        </button>
      </header>
      <main className="page">
        <Suspense fallback={<div className="splash">Loading…</div>}>
          <div hidden={path !== '/'} className="page-fill">
            <WorkspacePage user={user} theme={theme} />
          </div>
          {path === '/approvals' && (
            <Suspense fallback={<div className="splash">Loading…</div>}>
              <ApprovalsPage user={user} />
            </Suspense>
          )}
          {path === '/admin' &&
            (user.role === 'admin' ? (
              <Suspense fallback={<div className="splash">Loading…</div>}>
                <AdminPage />
              </Suspense>
            ) : (
              <p className="notice" role="alert">
                Administration is for administrators. <Link href="/">Back to the workspace</Link>
              </p>
            ))}
          {path === '/monitoring' && <MonitoringPage user={user} />}
          {!['/', '/approvals', '/admin', '/monitoring'].includes(path) && (
            <p className="notice">
              There is no page at {path}. <Link href="/">Go to the workspace</Link>
            </p>
          )}
        </Suspense>
      </main>
      <EditorShortcuts />
    </div>
  );
}

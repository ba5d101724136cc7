// The layout route of every signed-in page: the top bar (navigation, the person, theme, shortcuts, Sign out)
// and the page of the current route in its outlet. The workspace is rendered here, not in the outlet, and
// only hidden while another route is shown: its open editor tabs, editor text, results and object tree
// survive a trip to approvals, monitoring or administration and back (routes.tsx; test/ui/layout.test.ts).
import { Button, LoadingState, useShortcut, useTheme } from '@app/web-kit';
import { Outlet } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { InboxCount } from '../governance/InboxCount';
import { apiPost } from '../lib/api';
import { Link, navigate, useLocation } from '../lib/router';
import { EditorShortcuts } from './shortcuts';
import { useSignedInUser } from './signedIn';

// Signed-in pages are their own chunks: the sign-in page loads only React and itself.
const WorkspacePage = lazy(() =>
  import('../pages/WorkspacePage').then((m) => ({ default: m.WorkspacePage })),
);

/** The workspace's address; every other address is a page in the outlet. */
export const WORKSPACE_PATH = '/';

export function ShellLayout() {
  const user = useSignedInUser();
  const { path } = useLocation();
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
  const onWorkspace = path === WORKSPACE_PATH;
  const current = (href: string) =>
    href === '/' ? onWorkspace : path === href || path.startsWith(`${href}/`);
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Database Portal</span>
        <nav aria-label="Main">
          {nav.map((n) => (
            <Link
              key={n.href}
              href={n.href}
              className={current(n.href) ? 'active' : undefined}
              aria-current={current(n.href) ? 'page' : undefined}
            >
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
        <Button
          variant="ghost"
          aria-label={theme === 'dark' ? 'Use light theme' : 'Use dark theme'}
          title="Switch theme"
          onClick={() => setChoice(theme === 'dark' ? 'light' : 'dark')}
        >
          {theme === 'dark' ? '☀' : '☾'}
        </Button>
        <Button
          variant="ghost"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          // The kit's help dialog opens on "?" typed outside a text field.
          onClick={() => window.dispatchEvent(new KeyboardEvent('keydown', { key: '?' }))}
        >
          ?
        </Button>
        <Button variant="ghost" onClick={signOut} busy={signingOut}>
          Sign out
        </Button>
      </header>
      <main className="page">
        <div hidden={!onWorkspace} className="page-fill" data-testid="workspace-page">
          <Suspense fallback={<LoadingState />}>
            <WorkspacePage user={user} theme={theme} />
          </Suspense>
        </div>
        {/* Its own boundary: a page loading its chunk never hides the (kept) workspace. */}
        {!onWorkspace && (
          <Suspense fallback={<LoadingState />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <EditorShortcuts />
    </div>
  );
}

// The root of every page: the sign-in gate (signed-out users go to /login?next=<where they were>), the frame
// with navigation for signed-in users, the app-wide keyboard shortcuts, and the page the router matched.
// Pages for a higher role than the user's say so instead of showing actions that would be refused.
import { ErrorState, LoadingState, useShortcut } from '@app/web-kit';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { onUnauthorized } from './api/client';
import type { Role } from './api/types';
import { Layout } from './components/Layout';
import { ErrorNote } from './components/ui';
import { navigate, safeNext, useLocation } from './lib/router';
import { ME_KEY, useMeQuery, useSession } from './lib/session';
import { LoginPage } from './pages/LoginPage';

export function Requires({ min, children }: { min: Role; children: ReactNode }) {
  const { can } = useSession();
  if (!can(min)) return <ErrorNote error={`This page needs the ${min} role.`} />;
  return <>{children}</>;
}

function GlobalShortcuts() {
  const { can } = useSession();
  useShortcut('g p', 'Go to projects', () => navigate('/projects'), { group: 'Navigation' });
  useShortcut('g r', 'Go to runs', () => navigate('/runs'), { group: 'Navigation' });
  useShortcut('g a', 'Go to apply', () => navigate('/apply'), {
    group: 'Navigation',
    enabled: can('maintainer'),
  });
  useShortcut('g g', 'Go to agents', () => navigate('/agents'), {
    group: 'Navigation',
    enabled: can('admin'),
  });
  return null;
}

export function App() {
  const client = useQueryClient();
  const me = useMeQuery();
  const { path, search } = useLocation();
  const signedIn = Boolean(me.data);

  // A request that answers 401 means the session ended (expired, signed out elsewhere): back to sign-in.
  useEffect(() => onUnauthorized(() => client.setQueryData(ME_KEY, null)), [client]);

  useEffect(() => {
    if (me.data === null && path !== '/login') {
      const here = path + (search.size ? `?${search}` : '');
      navigate(`/login${here === '/' ? '' : `?next=${encodeURIComponent(here)}`}`, { replace: true });
    } else if (signedIn && path === '/login') navigate(safeNext(search.get('next')), { replace: true });
  }, [me.data, signedIn, path, search]);

  if (me.isLoading) return <LoadingState label="Starting…" />;
  if (me.error && me.data === undefined)
    return (
      <main className="login">
        <ErrorState error={me.error} title="The server cannot be reached" onRetry={() => me.refetch()} />
      </main>
    );
  if (!signedIn) return path === '/login' ? <LoginPage /> : <LoadingState />;
  if (path === '/login') return <LoadingState />;
  return (
    <Layout>
      <GlobalShortcuts />
      <Outlet />
    </Layout>
  );
}

// Top-level routing: the sign-in gate (signed-out users go to /login?next=<where they were>), then one page
// per path. Pages for a higher role than the user's say so instead of showing actions that would be refused.
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { onUnauthorized } from './api/client';
import type { Role } from './api/types';
import { Layout } from './components/Layout';
import { ErrorNote, Loading } from './components/ui';
import { match, navigate, safeNext, useLocation } from './lib/router';
import { ME_KEY, useMeQuery, useSession } from './lib/session';
import { AccountPage } from './pages/AccountPage';
import { AgentsPage } from './pages/AgentsPage';
import { ApplyPage } from './pages/ApplyPage';
import { AuditPage } from './pages/admin/AuditPage';
import { UsersPage } from './pages/admin/UsersPage';
import { LoginPage } from './pages/LoginPage';
import { ProjectPage } from './pages/ProjectPage';
import { ProjectsPage } from './pages/ProjectsPage';
import { RunPage } from './pages/RunPage';
import { RunsPage } from './pages/RunsPage';

function Requires({ min, children }: { min: Role; children: ReactNode }) {
  const { can } = useSession();
  if (!can(min)) return <ErrorNote error={`This page needs the ${min} role.`} />;
  return <>{children}</>;
}

/** Path patterns, the least role that may open them, and their page. */
const ROUTES: { pattern: string; min: Role; page: (p: Record<string, string>) => ReactNode }[] = [
  { pattern: '/', min: 'viewer', page: () => <ProjectsPage /> },
  { pattern: '/projects', min: 'viewer', page: () => <ProjectsPage /> },
  { pattern: '/projects/:slug', min: 'viewer', page: (p) => <ProjectPage key={p.slug} slug={p.slug} /> },
  { pattern: '/apply', min: 'maintainer', page: () => <ApplyPage /> },
  { pattern: '/runs', min: 'viewer', page: () => <RunsPage /> },
  { pattern: '/runs/:id', min: 'viewer', page: (p) => <RunPage key={p.id} id={p.id} /> },
  { pattern: '/agents', min: 'admin', page: () => <AgentsPage /> },
  { pattern: '/account', min: 'viewer', page: () => <AccountPage /> },
  { pattern: '/admin/users', min: 'admin', page: () => <UsersPage /> },
  { pattern: '/admin/audit', min: 'admin', page: () => <AuditPage /> },
];

function Page({ path }: { path: string }) {
  for (const route of ROUTES) {
    const params = match(route.pattern, path);
    if (params) return <Requires min={route.min}>{route.page(params)}</Requires>;
  }
  return <ErrorNote error={`There is no page at ${path}.`} />;
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

  if (me.isLoading) return <Loading what="Starting" />;
  if (me.error && me.data === undefined)
    return (
      <main className="login">
        <ErrorNote error={me.error} title="The server cannot be reached" />
      </main>
    );
  if (!signedIn) return path === '/login' ? <LoginPage /> : <Loading />;
  if (path === '/login') return <Loading />;
  return (
    <Layout>
      <Page path={path} />
    </Layout>
  );
}

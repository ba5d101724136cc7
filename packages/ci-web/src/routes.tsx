// The route tree on @tanstack/react-router: one route per page address with the least role that may open
// it. Path parameters are read here and handed to the page, keyed so a new id mounts a fresh page.
import { LoadingState } from '@app/web-kit';
import { createRootRoute, createRoute, useParams } from '@tanstack/react-router';
import { lazy, type ReactNode, Suspense } from 'react';
import { App, Requires } from './App';
import type { Role } from './api/types';
import { AccountPage } from './pages/AccountPage';
import { AgentsPage } from './pages/AgentsPage';
import { AdminSettingsPage } from './pages/admin/AdminSettingsPage';
import { AuditPage } from './pages/admin/AuditPage';
import { UsersPage } from './pages/admin/UsersPage';
import { WebhooksPage } from './pages/admin/WebhooksPage';
import { PipelinePage } from './pages/PipelinePage';
import { ProjectPage } from './pages/ProjectPage';
import { ProjectsPage } from './pages/ProjectsPage';
import { RunPage } from './pages/RunPage';
import { RunsPage } from './pages/RunsPage';

// Apply (Monaco, the YAML parser for the preview) is its own chunk: other pages never load it.
const ApplyPage = lazy(() => import('./pages/ApplyPage').then((m) => ({ default: m.ApplyPage })));

const rootRoute = createRootRoute({ component: App });

/** One page: the route component reads the path parameters and checks the role. */
function RoutePage({ min, render }: { min: Role; render: (params: Record<string, string>) => ReactNode }) {
  const params = useParams({ strict: false }) as Record<string, string>;
  return <Requires min={min}>{render(params)}</Requires>;
}

function page(path: string, min: Role, render: (params: Record<string, string>) => ReactNode) {
  return createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: () => <RoutePage min={min} render={render} />,
  });
}

// The sign-in page is rendered by App itself (before the frame); the route only makes the path known.
const loginRoute = createRoute({ getParentRoute: () => rootRoute, path: '/login', component: () => null });

export const routeTree = rootRoute.addChildren([
  loginRoute,
  page('/', 'viewer', () => <ProjectsPage />),
  page('/projects', 'viewer', () => <ProjectsPage />),
  page('/projects/$slug', 'viewer', (p) => <ProjectPage key={p.slug} slug={p.slug} />),
  page('/projects/$slug/pipelines/$name', 'viewer', (p) => (
    <PipelinePage key={`${p.slug}/${p.name}`} slug={p.slug} name={p.name} />
  )),
  page('/apply', 'maintainer', () => (
    <Suspense fallback={<LoadingState />}>
      <ApplyPage />
    </Suspense>
  )),
  page('/runs', 'viewer', () => <RunsPage />),
  page('/runs/$id', 'viewer', (p) => <RunPage key={p.id} id={p.id} />),
  page('/agents', 'admin', () => <AgentsPage />),
  page('/account', 'viewer', () => <AccountPage />),
  page('/admin/users', 'admin', () => <UsersPage />),
  page('/admin/audit', 'admin', () => <AuditPage />),
  page('/admin/webhooks', 'admin', () => <WebhooksPage />),
  page('/admin/settings', 'admin', () => <AdminSettingsPage />),
]);

// The route tree on @tanstack/react-router. The root (App) decides between the sign-in page and the signed-in
// layout route (shell/ShellLayout.tsx: top bar, and the workspace kept mounted); every other signed-in page is
// its own route in that layout's outlet: approvals, monitoring, and the administration layout with one route
// per section (/admin opens the audit log). The workspace route renders nothing itself: the layout holds the
// workspace so that leaving it and coming back keeps its tabs and editor state.
import { createRootRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { App } from './App';
import { Link, useLocation } from './lib/router';
import { LoginPage } from './pages/LoginPage';
import { ShellLayout } from './shell/ShellLayout';
import { useSignedInUser } from './shell/signedIn';

function NoSuchPage() {
  const { path } = useLocation();
  return (
    <p className="notice">
      There is no page at {path}. <Link href="/">Go to the workspace</Link>
    </p>
  );
}

const rootRoute = createRootRoute({ component: App, notFoundComponent: NoSuchPage });

const loginRoute = createRoute({ getParentRoute: () => rootRoute, path: '/login', component: LoginPage });

const shellRoute = createRoute({ getParentRoute: () => rootRoute, id: 'signed-in', component: ShellLayout });

// Any other address is a page of the layout too (the top bar stays, and so does the workspace).
const noSuchPageRoute = createRoute({ getParentRoute: () => shellRoute, path: '$', component: NoSuchPage });

const workspaceRoute = createRoute({ getParentRoute: () => shellRoute, path: '/', component: () => null });

const Approvals = lazyRouteComponent(() => import('./pages/ApprovalsPage'), 'ApprovalsPage');
const approvalsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/approvals',
  component: function ApprovalsRoute() {
    return <Approvals user={useSignedInUser()} />;
  },
});

const Monitoring = lazyRouteComponent(() => import('./pages/MonitoringPage'), 'MonitoringPage');
const monitoringRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/monitoring',
  component: function MonitoringRoute() {
    return <Monitoring user={useSignedInUser()} />;
  },
});

const adminRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin',
  component: lazyRouteComponent(() => import('./pages/AdminPage'), 'AdminPage'),
});
const adminIndexRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ href: '/admin/audit', replace: true });
  },
});
const section = (path: string, component: ReturnType<typeof lazyRouteComponent>) =>
  createRoute({ getParentRoute: () => adminRoute, path, component });

export const routeTree = rootRoute.addChildren([
  loginRoute,
  shellRoute.addChildren([
    workspaceRoute,
    approvalsRoute,
    monitoringRoute,
    adminRoute.addChildren([
      adminIndexRoute,
      section(
        '/audit',
        lazyRouteComponent(() => import('./admin/AuditLog'), 'AuditLog'),
      ),
      section(
        '/tokens',
        lazyRouteComponent(() => import('./admin/ServiceTokens'), 'ServiceTokens'),
      ),
      section(
        '/datasources',
        lazyRouteComponent(() => import('./admin/Datasources'), 'Datasources'),
      ),
      section(
        '/seed',
        lazyRouteComponent(() => import('./admin/SeedData'), 'SeedData'),
      ),
      section(
        '/accounts',
        lazyRouteComponent(() => import('./admin/AccountProvisioning'), 'AccountProvisioning'),
      ),
    ]),
    noSuchPageRoute,
  ]),
]);

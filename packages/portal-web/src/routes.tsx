// The route tree on @tanstack/react-router. The app shell (App) renders the pages itself so the workspace
// stays mounted while another page is open; the routes make the addresses known to the router.
import { createRootRoute, createRoute } from '@tanstack/react-router';
import { App } from './App';

const rootRoute = createRootRoute({ component: App, notFoundComponent: () => null });
const page = (path: string) => createRoute({ getParentRoute: () => rootRoute, path, component: () => null });

export const routeTree = rootRoute.addChildren([
  page('/'),
  page('/login'),
  page('/approvals'),
  page('/admin'),
  page('/monitoring'),
]);

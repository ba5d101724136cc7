// Administration (administrators only; the server checks every route again): a layout route whose tabs are
// the sections' own pages — the audit log, the service tokens of the bot API, the managed datasources with
// their policies, seed data and least-privilege accounts — each at /admin/<section> (routes.tsx).
import { Tabs } from '@app/web-kit';
import { Outlet } from '@tanstack/react-router';
import { Link, navigate, useLocation } from '../lib/router';
import { useSignedInUser } from '../shell/signedIn';

/** The sections in tab order: one row per section (its route is in routes.tsx). */
export const ADMIN_SECTIONS = [
  { id: 'audit', label: 'Audit log' },
  { id: 'tokens', label: 'Service tokens' },
  { id: 'datasources', label: 'Datasources' },
  { id: 'seed', label: 'Seed data' },
  { id: 'accounts', label: 'Accounts' },
] as const;

export function AdminPage() {
  const user = useSignedInUser();
  const { path } = useLocation();
  if (user.role !== 'admin') {
    return (
      <p className="notice" role="alert">
        Administration is for administrators. <Link href="/">Back to the workspace</Link>
      </p>
    );
  }
  const section = ADMIN_SECTIONS.find((s) => path === `/admin/${s.id}`)?.id ?? 'audit';
  return (
    <div className="page-body">
      <div className="page-head">
        <h1>Administration</h1>
        <Tabs
          items={[...ADMIN_SECTIONS]}
          value={section}
          onChange={(id) => navigate(`/admin/${id}`)}
          label="Administration sections"
        />
      </div>
      <Outlet />
    </div>
  );
}

// The frame of every signed-in page: a top bar (product, who is signed in, sign-out) and a left navigation
// whose entries follow the user's role, the theme toggle and the shortcuts hint.
import { ThemeToggle } from '@app/web-kit';
import type { ReactNode } from 'react';
import type { Role } from '../api/types';
import { Link, navigate, useLocation } from '../lib/router';
import { useSession, useSignOut } from '../lib/session';

interface NavItem {
  href: string;
  label: string;
  role: Role;
}

const NAV: NavItem[] = [
  { href: '/projects', label: 'Projects', role: 'viewer' },
  { href: '/runs', label: 'Runs', role: 'viewer' },
  { href: '/apply', label: 'Apply bundle', role: 'maintainer' },
  { href: '/agents', label: 'Agents', role: 'admin' },
  { href: '/admin/users', label: 'Users', role: 'admin' },
  { href: '/admin/audit', label: 'Audit log', role: 'admin' },
  { href: '/admin/webhooks', label: 'Webhook deliveries', role: 'admin' },
  { href: '/admin/settings', label: 'Settings', role: 'admin' },
  { href: '/account', label: 'Account', role: 'viewer' },
];

export function Layout({ children }: { children: ReactNode }) {
  const { user, can, anonymous } = useSession();
  const signOut = useSignOut();
  const { path } = useLocation();
  const active = (href: string) => path === href || path.startsWith(`${href}/`);
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/projects" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          CI control plane
        </Link>
        <div className="who">
          <span className="muted small" title="Keyboard shortcuts">
            <kbd>?</kbd> shortcuts
          </span>
          <ThemeToggle />
          <span>
            {user.username} <span className="role">{user.role}</span>
          </span>
          {!anonymous && (
            <button
              type="button"
              className="ghost"
              onClick={async () => {
                await signOut();
                navigate('/login', { replace: true });
              }}
            >
              Sign out
            </button>
          )}
        </div>
      </header>
      <nav className="sidenav" aria-label="Main">
        <ul>
          {NAV.filter((n) => can(n.role)).map((n) => (
            <li key={n.href}>
              <Link href={n.href} className={active(n.href) ? 'active' : undefined}>
                {n.label}
              </Link>
            </li>
          ))}
        </ul>
        {anonymous && <p className="nav-note">Authentication is disabled on this server.</p>}
      </nav>
      <main className="content">{children}</main>
    </div>
  );
}

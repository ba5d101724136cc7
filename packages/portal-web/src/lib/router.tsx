// Navigation helpers over @tanstack/react-router (the web kit's router setup; the route tree is in
// routes.tsx): pages link and navigate by plain hrefs and read the path, search and hash; modified clicks
// (new tab) keep normal link behaviour. The server answers index.html for every page path.
import type { AnyRouter } from '@tanstack/react-router';
import { useRouterState } from '@tanstack/react-router';
import { type AnchorHTMLAttributes, type MouseEvent, useEffect } from 'react';

let router: AnyRouter | null = null;

/** Called once by main.tsx with the app's router. */
export function bindRouter(r: AnyRouter): void {
  router = r;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (!router) {
    window.location.assign(to);
    return;
  }
  if (to === router.state.location.href) return;
  void router.navigate({ href: to, replace: options.replace });
}

export interface Location {
  path: string;
  search: URLSearchParams;
  hash: string;
}

export function useLocation(): Location {
  const loc = useRouterState({ select: (s) => s.location });
  return { path: loc.pathname, search: new URLSearchParams(loc.searchStr), hash: loc.hash.replace(/^#/, '') };
}

export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handle} {...rest} />;
}

/** Replaces the location once (e.g. a signed-in user landing on /login). */
export function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

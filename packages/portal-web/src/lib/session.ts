// The signed-in person (`GET /api/auth/me`), shared through TanStack Query under the key ['me'].
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from './api';
import type { SessionUser } from './types';

/**
 * `GET /api/auth/me` (generated type: `user` optional) as the server answers it: `user` is there exactly when
 * `authenticated` is true.
 */
export type Me = { authenticated: true; user: SessionUser } | { authenticated: false };

export const ME_KEY = ['me'] as const;

export async function fetchMe(): Promise<Me> {
  try {
    return (await apiGet('/api/auth/me', { quiet401: true })) as Me;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { authenticated: false };
    throw err;
  }
}

export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000 });
}

/** Where a person lands after signing in (the server's OIDC callback does the same). */
export function landingFor(_user: SessionUser): string {
  // Everyone lands on the workspace, administrators too (issue 30: they landed on the audit log); the admin
  // pages are one click away in the top bar.
  return '/';
}

// Who is signed in: `GET /api/v1/me` as a query (null when signed out), role helpers that decide which
// actions a page shows (the server enforces them anyway), and sign-in / sign-out.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, apiGet } from '../api/client';
import { asUser, type Role, type User } from '../api/types';

const ORDER: Role[] = ['viewer', 'maintainer', 'admin'];
/** The id `/api/v1/me` answers when the server runs with CI_AUTH_ENABLED=false. */
const ANONYMOUS_ID = '00000000-0000-0000-0000-000000000000';

export const ME_KEY = ['me'] as const;

export async function fetchMe(): Promise<User | null> {
  try {
    return asUser(await apiGet('/api/v1/me', { quiet401: true }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export function useMeQuery() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000, retry: 1 });
}

export interface Session {
  user: User;
  /** True when the user's role is at least `role`. */
  can: (role: Role) => boolean;
  /** Authentication is disabled on the server: everyone is an anonymous administrator. */
  anonymous: boolean;
}

/** The signed-in user; only used below the sign-in gate, where a user exists. */
export function useSession(): Session {
  const { data } = useMeQuery();
  if (!data) throw new Error('useSession used outside a signed-in page');
  return {
    user: data,
    can: (role) => ORDER.indexOf(data.role) >= ORDER.indexOf(role),
    anonymous: data.id === ANONYMOUS_ID,
  };
}

export function useSignOut() {
  const client = useQueryClient();
  return async () => {
    try {
      await api.post('/auth/logout');
    } finally {
      client.clear();
      client.setQueryData(ME_KEY, null);
    }
  };
}

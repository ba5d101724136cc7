// The signed-in person for the pages under the shell layout. The app root (App.tsx) renders the shell only
// once `GET /api/auth/me` said who is signed in, so below it the answer is in the query cache.
import { useMe } from '../lib/session';
import type { SessionUser } from '../lib/types';

export function useSignedInUser(): SessionUser {
  const me = useMe();
  if (!me.data?.authenticated) throw new Error('useSignedInUser is used outside the signed-in shell');
  return me.data.user;
}

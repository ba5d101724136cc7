// The app's root route: asks who is signed in, then shows the sign-in page (/login) or the signed-in layout
// route (shell/ShellLayout.tsx) in its outlet; a signed-in person on /login goes to their landing page and
// anyone else signed out goes to /login. An answer of 401 from any API call later sends the person back to
// /login as well. The routes themselves are in routes.tsx.
import { Button, ErrorState, LoadingState } from '@app/web-kit';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { setUnauthorizedHandler } from './lib/api';
import { navigate, Redirect, useLocation } from './lib/router';
import { landingFor, ME_KEY, useMe } from './lib/session';

export function App() {
  const qc = useQueryClient();
  const location = useLocation();
  const me = useMe();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      qc.setQueryData(ME_KEY, { authenticated: false });
      navigate('/login', { replace: true });
    });
  }, [qc]);

  if (me.isPending) return <LoadingState />;
  if (me.isError) {
    return (
      <div className="splash">
        <ErrorState error={me.error} title="The portal did not answer" />
        <Button onClick={() => me.refetch()}>Retry</Button>
      </div>
    );
  }
  const data = me.data;
  if (location.path === '/login') {
    return data.authenticated ? <Redirect to={landingFor(data.user)} /> : <Outlet />;
  }
  if (!data.authenticated) return <Redirect to="/login" />;
  return <Outlet />;
}

// A real OpenID provider for tests: `oidc-provider` on 127.0.0.1 with a few accounts, plus a tiny
// "browser" that follows its redirects, keeps its cookies and submits the development login form — so the
// control plane's OIDC flow is exercised against real discovery, PKCE, ID tokens and userinfo.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IdpAccount {
  username: string;
  email: string;
  groups: string[];
}

export interface TestIdp {
  issuer: string;
  accounts: Map<string, IdpAccount>;
  /**
   * Follows an authorization URL as a browser would, signs in as `accountId`, and returns the URL the IdP
   * finally redirects to (the control plane's callback, not followed).
   */
  signIn(authorizationUrl: string, accountId: string): Promise<URL>;
  stop(): Promise<void>;
}

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export async function startIdp(clients: IdpClient[]): Promise<TestIdp> {
  let handler: (req: any, res: any) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, IdpAccount>();

  // oidc-provider ships no type declarations; a non-literal specifier keeps the compiler from asking.
  const specifier = 'oidc-provider';
  const { default: Provider } = (await import(specifier)) as { default: any };
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      ...c,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    scopes: ['openid', 'profile', 'email', 'groups', 'offline_access'],
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'name'],
      email: ['email', 'email_verified'],
      groups: ['groups'],
    },
    cookies: { keys: ['test-only-cookie-key'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            preferred_username: account.username,
            name: account.username,
            email: account.email,
            email_verified: true,
            groups: account.groups,
          };
        },
      };
    },
    // Grants consent automatically, so a sign-in is one login form.
    async loadExistingGrant(ctx: any) {
      const grantId =
        ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid profile email groups');
      await grant.save();
      return grant;
    },
  });
  handler = provider.callback();

  async function signIn(authorizationUrl: string, accountId: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const remember = (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
    };
    let url = new URL(authorizationUrl);
    let init: RequestInit = {};
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin !== issuer) return url;
      const res = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() },
      });
      remember(res);
      init = {};
      const location = res.headers.get('location');
      if (location) {
        await res.arrayBuffer();
        url = new URL(location, url);
        continue;
      }
      const html = await res.text();
      if (res.status === 200 && html.includes('name="prompt" value="login"')) {
        const action = /<form[^>]*action="([^"]+)"/.exec(html)![1];
        url = new URL(action, url);
        init = {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ prompt: 'login', login: accountId, password: 'any' }).toString(),
        };
        continue;
      }
      throw new Error(`unexpected IdP answer ${res.status} at ${url.pathname}: ${html.slice(0, 300)}`);
    }
    throw new Error('too many redirects at the IdP');
  }

  return {
    issuer,
    accounts,
    signIn,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// A real OpenID provider for the OIDC tests: `oidc-provider` on 127.0.0.1 with PKCE required, accounts whose
// roles sit in a nested claim (`realm_access.roles`, as Keycloak puts them), interactions that log in the
// chosen account and grant consent without a form, and a small cookie-keeping HTTP client that follows
// redirects the way a browser would.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';

export interface TestProvider {
  issuer: string;
  /** How many times the discovery document was fetched. */
  discoveryCount(): number;
  /** The account the next interaction logs in. */
  loginAs(accountId: string): void;
  /** Registers the portal as a client (call once the portal's origin is known). */
  configure(portalOrigin: string): Promise<void>;
  close(): Promise<void>;
}

export const CLIENT = { id: 'portal', secret: 'portal-client-secret' };

export const ACCOUNTS: Record<string, string[]> = {
  alice: ['Admin', 'offline_access'],
  bob: ['viewer'],
};

export async function startProvider(options: { rolesInIdToken: boolean }): Promise<TestProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let discoveries = 0;
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/.well-known/openid-configuration')) discoveries += 1;
    if (!handler) {
      res.statusCode = 503;
      res.end();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const addr = server.address();
  const issuer = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  let account = 'alice';

  return {
    issuer,
    discoveryCount: () => discoveries,
    loginAs: (id) => {
      account = id;
    },
    async configure(portalOrigin) {
      // A specifier in a variable: the package ships no type declarations and the tests need none.
      const specifier = 'oidc-provider';
      const { default: Provider } = await import(specifier);
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT.id,
            client_secret: CLIENT.secret,
            redirect_uris: [`${portalOrigin}/api/auth/oidc/callback`],
            post_logout_redirect_uris: [`${portalOrigin}/login`],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test' }] },
        cookies: { keys: ['oidc-test-cookie-key'] },
        pkce: { required: () => true },
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 600,
          IdToken: 600,
          Interaction: 600,
          Session: 600,
        },
        conformIdTokenClaims: !options.rolesInIdToken,
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['preferred_username', 'name', 'realm_access'],
        },
        features: { devInteractions: { enabled: false } },
        interactions: {
          url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
        },
        findAccount: async (_ctx: unknown, id: string) => ({
          accountId: id,
          claims: async () => ({
            sub: id,
            email: `${id}@example.test`,
            email_verified: true,
            preferred_username: id,
            name: id,
            realm_access: { roles: ACCOUNTS[id] ?? [] },
          }),
        }),
      });
      const callback = provider.callback();
      handler = (req, res) => {
        if (!req.url?.startsWith('/interaction/')) return callback(req, res);
        void (async () => {
          const details = await provider.interactionDetails(req, res);
          if (details.prompt.name === 'login') {
            await provider.interactionFinished(
              req,
              res,
              { login: { accountId: account } },
              { mergeWithLastSubmission: false },
            );
            return;
          }
          const grant = new provider.Grant({
            accountId: details.session.accountId,
            clientId: details.params.client_id,
          });
          const missing = details.prompt.details;
          if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
          if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
          const grantId = await grant.save();
          await provider.interactionFinished(
            req,
            res,
            { consent: { grantId } },
            { mergeWithLastSubmission: true },
          );
        })().catch((err) => {
          res.statusCode = 500;
          res.end(String(err));
        });
      };
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Cookies per origin (path and expiry are simplified: a cleared cookie is dropped). */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    if (!this.jar.has(origin)) this.jar.set(origin, new Map());
    this.jar.get(origin)!.set(name, value);
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const cookies = [...(this.jar.get(origin) ?? new Map())].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookies) headers.set('cookie', cookies);
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const cleared =
        value === '' ||
        attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) ||
        attrs.some((a) => /^\s*expires=.*1970/i.test(a));
      if (cleared) this.jar.get(origin)?.delete(name);
      else this.setCookie(origin, name, value);
    }
    return res;
  }

  /**
   * Follows redirects from `url` until a response that is not a redirect, or until `stop(url)` says so
   * (the URL is then returned unvisited). Returns every URL visited and the last response.
   */
  async follow(url: string, stop: (next: URL) => boolean = () => false) {
    const visited: Array<{ url: string; status: number; location?: string; setCookie: string[] }> = [];
    let current = url;
    for (let hop = 0; hop < 20; hop++) {
      const res = await this.request(current);
      const location = res.headers.get('location') ?? undefined;
      visited.push({ url: current, status: res.status, location, setCookie: res.headers.getSetCookie() });
      if (res.status < 300 || res.status >= 400 || !location) return { visited, last: res, next: undefined };
      const next = new URL(location, current);
      if (stop(next)) return { visited, last: res, next };
      current = next.href;
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

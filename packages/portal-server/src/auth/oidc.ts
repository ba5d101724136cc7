// OIDC single sign-on (Authorization Code with PKCE S256) on `openid-client`: provider discovery cached for
// five minutes, the signed short-lived `oidc-state` value (state, nonce, code verifier, redirect URI), the
// callback's checks and role mapping, and the provider's end-session URL for logout.
import { ConfigError, deriveKey } from '@app/kit';
import { jwtVerify, SignJWT } from 'jose';
import type * as OpenId from 'openid-client';
import type { PortalSettings } from '../config.js';
import { mapOidcRole, parseAdminRoles, readClaim } from './role-claim.js';
import { isLoopbackHost, type Role } from './session.js';

/** openid-client is loaded by the first sign-in through the provider, not at every start (docs/portal-runtime.md). */
let openIdClient: Promise<typeof OpenId> | undefined;
const loadOpenId = (): Promise<typeof OpenId> => {
  openIdClient ??= import('openid-client');
  return openIdClient;
};

export const OIDC_STATE_COOKIE = 'oidc-state';
export const OIDC_STATE_TTL_SECONDS = 5 * 60;
export const DISCOVERY_TTL_MS = 5 * 60 * 1000;
const STATE_AUDIENCE = 'database-portal:oidc-state';

/**
 * Codes sent back as `/login?error=<code>` (documented in docs/portal-auth.md).
 */
export type OidcErrorCode =
  | 'oidc_not_enabled'
  | 'provider_unavailable'
  | 'invalid_state'
  | 'access_denied'
  | 'provider_error'
  | 'missing_code'
  | 'token_exchange_failed';

export class OidcFailure extends Error {
  override name = 'OidcFailure';
  constructor(
    readonly code: OidcErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface OidcOptions {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  scope: string;
  roleClaim?: string;
  adminRoles: string[];
  insecureHttp: boolean;
}

/** The OIDC settings when `PUBLIC_AUTH_PROVIDER=oidc`; a ConfigError names every missing or unusable one. */
export function oidcOptions(settings: PortalSettings): OidcOptions | undefined {
  if (settings.authProvider !== 'oidc') return undefined;
  const problems: string[] = [];
  for (const [env, value] of [
    ['OIDC_ISSUER', settings.oidcIssuer],
    ['OIDC_CLIENT_ID', settings.oidcClientId],
    ['OIDC_CLIENT_SECRET', settings.oidcClientSecret],
  ] as const) {
    if (!value) problems.push(`${env}: required when PUBLIC_AUTH_PROVIDER is oidc`);
  }
  const issuer = settings.oidcIssuer ? new URL(settings.oidcIssuer) : undefined;
  let insecureHttp = false;
  if (issuer && issuer.protocol === 'http:') {
    insecureHttp = true;
    if (!isLoopbackHost(issuer.hostname.replace(/^\[|\]$/g, '')) && !settings.oidcAllowInsecureHttp) {
      problems.push(
        'OIDC_ISSUER: plain http is only accepted on a loopback host; use https or set OIDC_ALLOW_INSECURE_HTTP=true',
      );
    }
  } else if (issuer && issuer.protocol !== 'https:') {
    problems.push('OIDC_ISSUER: expected an http(s) URL');
  }
  if (!settings.oidcScope.split(/\s+/).includes('openid')) {
    problems.push('OIDC_SCOPE: must include openid');
  }
  if (problems.length) throw new ConfigError(problems);
  return {
    issuer: issuer!,
    clientId: settings.oidcClientId!,
    clientSecret: settings.oidcClientSecret!,
    scope: settings.oidcScope,
    roleClaim: settings.oidcRoleClaim,
    adminRoles: parseAdminRoles(settings.oidcAdminRoles),
    insecureHttp,
  };
}

interface StatePayload {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

export interface OidcIdentity {
  role: Role;
  username: string;
  sub: string;
}

export class OidcClient {
  private cached?: { config: OpenId.Configuration; at: number };
  private inflight?: Promise<OpenId.Configuration>;
  private readonly stateKey: Uint8Array;

  constructor(
    readonly options: OidcOptions,
    jwtSecret: string,
    private readonly now: () => number = Date.now,
  ) {
    // A key of its own, so a state value can never pass as a session and the other way round.
    this.stateKey = new Uint8Array(deriveKey(jwtSecret, 'oidc-state'));
  }

  /** The provider's configuration, discovered at most once per five minutes (failures are not cached). */
  async configuration(): Promise<OpenId.Configuration> {
    if (this.cached && this.now() - this.cached.at < DISCOVERY_TTL_MS) return this.cached.config;
    this.inflight ??= (async () => {
      try {
        const client = await loadOpenId();
        const config = await client.discovery(
          this.options.issuer,
          this.options.clientId,
          this.options.clientSecret,
          undefined,
          { execute: this.options.insecureHttp ? [client.allowInsecureRequests] : [], timeout: 10 },
        );
        config.timeout = 10;
        this.cached = { config, at: this.now() };
        return config;
      } finally {
        this.inflight = undefined;
      }
    })();
    try {
      return await this.inflight;
    } catch (err) {
      throw new OidcFailure('provider_unavailable', `OIDC discovery failed: ${(err as Error).message}`);
    }
  }

  /** The provider URL to send the browser to, and the signed value of the `oidc-state` cookie. */
  async begin(redirectUri: string): Promise<{ url: string; stateCookie: string }> {
    const config = await this.configuration();
    const client = await loadOpenId();
    const verifier = client.randomPKCECodeVerifier();
    const payload: StatePayload = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier,
      redirectUri,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: this.options.scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: payload.state,
      nonce: payload.nonce,
      prompt: 'login',
    });
    const iat = Math.floor(this.now() / 1000);
    const stateCookie = await new SignJWT({ ...payload })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(STATE_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + OIDC_STATE_TTL_SECONDS)
      .sign(this.stateKey);
    return { url: url.href, stateCookie };
  }

  private async readState(cookie: string | undefined): Promise<StatePayload> {
    if (!cookie) throw new OidcFailure('invalid_state', 'the oidc-state cookie is missing or expired');
    try {
      const { payload } = await jwtVerify(cookie, this.stateKey, {
        algorithms: ['HS256'],
        audience: STATE_AUDIENCE,
        currentDate: new Date(this.now()),
        requiredClaims: ['exp'],
      });
      const { state, nonce, verifier, redirectUri } = payload as Partial<StatePayload>;
      if (![state, nonce, verifier, redirectUri].every((v) => typeof v === 'string' && v)) throw new Error();
      return { state, nonce, verifier, redirectUri } as StatePayload;
    } catch {
      throw new OidcFailure('invalid_state', 'the oidc-state cookie is invalid or expired');
    }
  }

  /**
   * Completes a callback: checks the state against the cookie, exchanges the code (PKCE verifier, nonce and
   * ID token checks by openid-client), and maps the claims to a portal identity.
   */
  async complete(rawQuery: string, stateCookie: string | undefined): Promise<OidcIdentity> {
    const stored = await this.readState(stateCookie);
    const params = new URLSearchParams(rawQuery);
    if (params.get('state') !== stored.state) {
      throw new OidcFailure('invalid_state', 'the state parameter does not match this browser');
    }
    const error = params.get('error');
    if (error) {
      throw new OidcFailure(
        error === 'access_denied' ? 'access_denied' : 'provider_error',
        `the provider answered ${error.slice(0, 100)}`,
      );
    }
    if (!params.get('code')) throw new OidcFailure('missing_code', 'the callback carries no code');
    const config = await this.configuration();
    const client = await loadOpenId();
    const currentUrl = new URL(stored.redirectUri);
    currentUrl.search = params.toString();
    let tokens: Awaited<ReturnType<typeof OpenId.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: stored.verifier,
        expectedState: stored.state,
        expectedNonce: stored.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new OidcFailure('token_exchange_failed', `code exchange failed: ${(err as Error).message}`);
    }
    const claims = (tokens.claims() ?? {}) as Record<string, unknown>;
    const sub = String(claims.sub);
    let roleSource = claims;
    // Providers often keep role claims out of the ID token (Keycloak's defaults); ask userinfo then.
    const { roleClaim } = this.options;
    if (roleClaim && readClaim(claims, roleClaim) === undefined && tokens.access_token) {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, sub);
        roleSource = { ...info, ...claims };
      } catch {
        // No userinfo: the role falls back to `user`, never up.
      }
    }
    const name = [claims.preferred_username, claims.email, sub].find((v) => typeof v === 'string' && v);
    return {
      role: mapOidcRole(roleSource, roleClaim, this.options.adminRoles),
      username: String(name).slice(0, 200),
      sub,
    };
  }

  /** The provider's logout URL returning to `postLogoutRedirectUri`, when it advertises one. */
  async endSessionUrl(postLogoutRedirectUri: string): Promise<string | undefined> {
    const config = await this.configuration();
    const client = await loadOpenId();
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(config, { post_logout_redirect_uri: postLogoutRedirectUri }).href;
  }
}

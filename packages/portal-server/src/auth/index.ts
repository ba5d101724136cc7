// The portal's authentication context: sessions, local accounts, second factor, OIDC client and the rate
// limiters, built once per server from the settings and the bootstrap secrets and hung on the Fastify
// instance as `app.portalAuth` (so `requireSession(request)` can reach it from any route).
import type { AuthSecrets } from '../bootstrap.js';
import type { PortalSettings } from '../config.js';
import { type LocalAccount, localAccounts } from './accounts.js';
import { OidcClient, oidcOptions } from './oidc.js';
import { RateLimiter } from './rate-limit.js';
import { SessionService } from './session.js';
import { TotpVerifier } from './totp.js';

export interface PortalAuth {
  settings: PortalSettings;
  sessions: SessionService;
  accounts: LocalAccount[];
  totp: TotpVerifier;
  /** Present when `PUBLIC_AUTH_PROVIDER=oidc`. */
  oidc?: OidcClient;
  /**
   * Where sign-in attempts are recorded (type `sign_in`); set by the server once the audit log exists
   * (the sign-in routes are registered before it). Unset: not recorded.
   */
  recordSignIn?: (event: SignInEvent) => Promise<void>;
  limits: {
    /** Login attempts per client address and email. */
    loginPerEmail: RateLimiter;
    /** Login attempts per client address, whatever the email (credential stuffing). */
    loginPerAddress: RateLimiter;
    /** Requests to database-reaching routes per person (or client address). */
    database: RateLimiter;
    /** Requests of the service-token surfaces (bot API, MCP) per token. */
    serviceToken: RateLimiter;
    /** Model calls of the AI routes per person. */
    ai: RateLimiter;
    /** Model calls of the investigation agent per person (a budget of its own, of the same size). */
    agent: RateLimiter;
  };
}

/** One sign-in attempt as an audit event. Never carries a password or a code. */
export interface SignInEvent {
  type: 'sign_in';
  actor: string;
  result: 'success' | 'failure';
  method: 'local' | 'oidc';
  role?: string;
  /** Failure reason: invalid_credentials, code_required, invalid_code, rate_limited, or an OIDC error code. */
  reason?: string;
  address: string;
}

/** Budgets (per replica; the spec leaves the numbers open — see docs/portal-auth.md). */
/** Every budget counts requests in a one-minute window; the sizes are settings (config.ts, PORTAL_RATE_*). */
const MINUTE = 60_000;

export function createPortalAuth(
  settings: PortalSettings,
  secrets: AuthSecrets,
  options: { now?: () => number } = {},
): PortalAuth {
  const now = options.now ?? Date.now;
  const oidc = oidcOptions(settings);
  return {
    settings,
    sessions: new SessionService(secrets.jwtSecret, now),
    accounts: localAccounts(settings, secrets.adminPassword),
    totp: new TotpVerifier(now),
    oidc: oidc ? new OidcClient(oidc, secrets.jwtSecret, now) : undefined,
    limits: {
      loginPerEmail: new RateLimiter({ max: settings.rateLoginPerEmail, windowMs: MINUTE, now }),
      loginPerAddress: new RateLimiter({ max: settings.rateLoginPerAddress, windowMs: MINUTE, now }),
      database: new RateLimiter({ max: settings.rateDatabasePerUser, windowMs: MINUTE, now }),
      serviceToken: new RateLimiter({ max: settings.rateDatabasePerToken, windowMs: MINUTE, now }),
      ai: new RateLimiter({ max: settings.rateAiPerUser, windowMs: MINUTE, now }),
      agent: new RateLimiter({ max: settings.rateAiPerUser, windowMs: MINUTE, now }),
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    portalAuth: PortalAuth;
  }
}

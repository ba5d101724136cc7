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
    /** Requests to database-reaching routes per person (or token, or address). */
    database: RateLimiter;
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
export const RATE_BUDGETS = {
  loginPerEmail: { max: 10, windowMs: 60_000 },
  loginPerAddress: { max: 50, windowMs: 60_000 },
  database: { max: 300, windowMs: 60_000 },
} as const;

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
      loginPerEmail: new RateLimiter({ ...RATE_BUDGETS.loginPerEmail, now }),
      loginPerAddress: new RateLimiter({ ...RATE_BUDGETS.loginPerAddress, now }),
      database: new RateLimiter({ ...RATE_BUDGETS.database, now }),
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    portalAuth: PortalAuth;
  }
}

// The optional second factor: RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30-second step, one step of skew either
// side) via `otpauth`, plus replay protection: a code accepted for an account and time step is never
// accepted again (remembered until it can no longer validate, in this process or in the server storage when
// one is configured, so several replicas agree: see session-state.ts).
import { Secret, TOTP } from 'otpauth';
import { MemorySessionState, type SessionStateStore } from './session-state.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
const MIN_SECRET_BYTES = 10; // 80 bits, the common authenticator-app minimum (RFC 4226 §4 asks for 128)

/** Validates a base32 secret; a problem naming the variable is appended to `problems`. */
export function parseTotpSecret(value: string, envName: string, problems: string[]): Secret | undefined {
  try {
    const secret = Secret.fromBase32(value.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase());
    if (secret.bytes.length < MIN_SECRET_BYTES) {
      problems.push(`${envName}: the base32 secret must decode to at least ${MIN_SECRET_BYTES} bytes`);
      return undefined;
    }
    return secret;
  } catch (err) {
    problems.push(`${envName}: not a base32 TOTP secret (${(err as Error).message})`);
    return undefined;
  }
}

export function totpFor(secretBase32: string): TOTP {
  const problems: string[] = [];
  const secret = parseTotpSecret(secretBase32, 'TOTP secret', problems);
  if (!secret) throw new Error(problems.join('; '));
  return new TOTP({ secret, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}

export type TotpOutcome = 'accepted' | 'invalid' | 'reused';

export class TotpVerifier {
  private readonly totps = new Map<string, TOTP>();
  /** `<account>:<counter>` of codes already accepted. */
  private state: SessionStateStore;

  constructor(private readonly now: () => number = Date.now) {
    this.state = new MemorySessionState(now);
  }

  /** Keeps accepted codes in the server storage from now on (called once the store is open). */
  useState(state: SessionStateStore): void {
    this.state = state;
  }

  async check(accountId: string, secretBase32: string, code: string): Promise<TotpOutcome> {
    if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return 'invalid';
    let totp = this.totps.get(secretBase32);
    if (!totp) {
      totp = totpFor(secretBase32);
      this.totps.set(secretBase32, totp);
    }
    const timestamp = this.now();
    const delta = totp.validate({ token: code, timestamp, window: TOTP_WINDOW });
    if (delta === null) return 'invalid';
    const step = totp.counter({ timestamp }) + delta;
    // A code of step s validates until the end of step s + window; after that it need not be remembered.
    const validUntil = (step + TOTP_WINDOW + 1) * TOTP_PERIOD_SECONDS * 1000;
    return (await this.state.claimCode(`${accountId}:${step}`, validUntil)) ? 'accepted' : 'reused';
  }
}

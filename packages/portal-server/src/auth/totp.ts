// The optional second factor: RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30-second step, one step of skew either
// side) via `otpauth`, plus replay protection: a code accepted for an account and time step is never
// accepted again (remembered in this process until it can no longer validate).
import { Secret, TOTP } from 'otpauth';

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
  /** `<account>:<counter>` → the counter, for codes already accepted. */
  private readonly used = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  check(accountId: string, secretBase32: string, code: string): TotpOutcome {
    if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return 'invalid';
    let totp = this.totps.get(secretBase32);
    if (!totp) {
      totp = totpFor(secretBase32);
      this.totps.set(secretBase32, totp);
    }
    const timestamp = this.now();
    const delta = totp.validate({ token: code, timestamp, window: TOTP_WINDOW });
    if (delta === null) return 'invalid';
    const current = totp.counter({ timestamp });
    this.forgetBefore(current - TOTP_WINDOW);
    const key = `${accountId}:${current + delta}`;
    if (this.used.has(key)) return 'reused';
    this.used.set(key, current + delta);
    return 'accepted';
  }

  /** Codes of steps outside the window can no longer validate, so they need not be remembered. */
  private forgetBefore(counter: number): void {
    for (const [key, c] of this.used) if (c < counter) this.used.delete(key);
  }
}

// The drive credential (database-portal.md Authentication 4): a server-minted, single-purpose token that
// lets `POST /api/agent/drive` resume exactly one agent run without a session, valid about one minute and
// usable once. It is an HMAC over `{purpose, runId, exp, nonce}` with a key derived from the server secret;
// used nonces are remembered until they expire, so a replayed credential is refused.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DRIVE_PURPOSE = 'agent-drive';
export const DRIVE_TTL_MS = 60_000;
const PREFIX = 'agd_';

export interface DriveClaims {
  runId: string;
  exp: number;
  nonce: string;
}

export class DriveCredentials {
  private readonly used = new Map<string, number>();

  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = DRIVE_TTL_MS,
  ) {}

  mint(runId: string): { credential: string; expiresAt: string } {
    const exp = this.now() + this.ttlMs;
    const nonce = randomBytes(12).toString('base64url');
    const body = Buffer.from(JSON.stringify({ p: DRIVE_PURPOSE, r: runId, e: exp, n: nonce })).toString(
      'base64url',
    );
    return { credential: `${PREFIX}${body}.${this.sign(body)}`, expiresAt: new Date(exp).toISOString() };
  }

  /** The claims of a valid, unexpired, unused credential (and marks it used), or the reason it is refused. */
  redeem(credential: unknown): DriveClaims | { refused: string } {
    if (typeof credential !== 'string' || !credential.startsWith(PREFIX) || credential.length > 1000)
      return { refused: 'not a drive credential' };
    const [body, mac] = credential.slice(PREFIX.length).split('.');
    if (!body || !mac) return { refused: 'not a drive credential' };
    const want = Buffer.from(this.sign(body));
    const got = Buffer.from(mac);
    if (want.length !== got.length || !timingSafeEqual(want, got))
      return { refused: 'the credential is not valid' };
    let claims: { p?: unknown; r?: unknown; e?: unknown; n?: unknown };
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { refused: 'the credential is not valid' };
    }
    if (
      claims.p !== DRIVE_PURPOSE ||
      typeof claims.r !== 'string' ||
      typeof claims.e !== 'number' ||
      typeof claims.n !== 'string'
    )
      return { refused: 'the credential is not for driving an agent run' };
    const now = this.now();
    if (claims.e <= now) return { refused: 'the credential has expired' };
    this.sweep(now);
    if (this.used.has(claims.n)) return { refused: 'the credential was already used' };
    this.used.set(claims.n, claims.e);
    return { runId: claims.r, exp: claims.e, nonce: claims.n };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(`${DRIVE_PURPOSE}.${body}`).digest('base64url');
  }

  private sweep(now: number): void {
    for (const [n, exp] of this.used) if (exp <= now) this.used.delete(n);
  }
}

// Token text for API tokens (`ci_`) and service-account tokens (`cisa_`): the prefix followed by 32 random
// bytes in base64url. Only the SHA-256 of the text is stored; the first characters are kept as `prefix` so
// a person can tell tokens apart in a list.
import { hashToken, randomToken } from '@app/kit';

export const USER_TOKEN_PREFIX = 'ci_';
export const SERVICE_TOKEN_PREFIX = 'cisa_';
const RANDOM_BYTES = 32;
/** Characters of the random part shown in `prefix`. */
const SHOWN = 8;

export interface MintedToken {
  secret: string;
  hash: string;
  prefix: string;
}

export function mintToken(kind: 'user' | 'service_account'): MintedToken {
  const lead = kind === 'user' ? USER_TOKEN_PREFIX : SERVICE_TOKEN_PREFIX;
  const secret = randomToken(lead, RANDOM_BYTES);
  return { secret, hash: hashToken(secret), prefix: secret.slice(0, lead.length + SHOWN) };
}

/** Cheap shape check before touching the database: a known prefix and a base64url body of the right size. */
export function looksLikeToken(text: string): boolean {
  return /^(ci|cisa)_[A-Za-z0-9_-]{43}$/.test(text);
}

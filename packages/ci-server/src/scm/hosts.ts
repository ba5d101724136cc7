// The three SCM hosts as the webhook endpoint sees them: which header names the event, which carries the
// delivery id, how the body is signed (decisions.md: GitHub `X-Hub-Signature-256: sha256=<hex>`, Bitbucket
// `X-Hub-Signature` in the same form, GitLab `X-Gitlab-Token` compared in constant time), which headers hold
// secrets (redacted before a delivery is stored), and how the body is decoded and parsed.
import { createHash } from 'node:crypto';
import { hmacVerifyHex, safeEqual } from '@app/kit';
import { parseBitbucket } from './bitbucket.js';
import { parseGithub } from './github.js';
import { parseGitlab } from './gitlab.js';
import { type ParsedDelivery, PayloadError, type ScmHost } from './types.js';

export interface HostInfo {
  host: ScmHost;
  display: string;
  eventHeader: string;
  /** The header that identifies one delivery (redeliveries repeat it). */
  deliveryHeader: string;
  signatureHeader: string;
  signature: 'hmac-sha256' | 'token';
  parse: (event: string, payload: unknown) => ParsedDelivery;
}

export const HOSTS: Record<ScmHost, HostInfo> = {
  github: {
    host: 'github',
    display: 'GitHub',
    eventHeader: 'x-github-event',
    deliveryHeader: 'x-github-delivery',
    signatureHeader: 'x-hub-signature-256',
    signature: 'hmac-sha256',
    parse: parseGithub,
  },
  gitlab: {
    host: 'gitlab',
    display: 'GitLab',
    eventHeader: 'x-gitlab-event',
    deliveryHeader: 'x-gitlab-event-uuid',
    signatureHeader: 'x-gitlab-token',
    signature: 'token',
    parse: parseGitlab,
  },
  bitbucket: {
    host: 'bitbucket',
    display: 'Bitbucket Cloud',
    eventHeader: 'x-event-key',
    // X-Hook-UUID names the webhook subscription (the same on every delivery), so it cannot dedupe.
    deliveryHeader: 'x-request-uuid',
    signatureHeader: 'x-hub-signature',
    signature: 'hmac-sha256',
    parse: parseBitbucket,
  },
};

/** Header names as the hosts document them, for messages people read (lookups use lower case). */
const SPELLING: Record<string, string> = {
  'x-github-event': 'X-GitHub-Event',
  'x-github-delivery': 'X-GitHub-Delivery',
  'x-hub-signature-256': 'X-Hub-Signature-256',
  'x-gitlab-event': 'X-Gitlab-Event',
  'x-gitlab-event-uuid': 'X-Gitlab-Event-UUID',
  'x-gitlab-token': 'X-Gitlab-Token',
  'x-event-key': 'X-Event-Key',
  'x-request-uuid': 'X-Request-UUID',
  'x-hub-signature': 'X-Hub-Signature',
};

export function headerLabel(name: string): string {
  return SPELLING[name] ?? name;
}

type Headers = Record<string, string | string[] | undefined>;

export function header(headers: Headers, name: string): string | null {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() !== '' ? s.trim() : null;
}

/** True when the delivery carries a signature or token header at all. */
export function isSigned(info: HostInfo, headers: Headers): boolean {
  return header(headers, info.signatureHeader) !== null;
}

/** Whether `raw` was signed with `secret` the way `info.host` signs. Constant time in the secret. */
export function verifyDelivery(info: HostInfo, headers: Headers, raw: Buffer, secret: string): boolean {
  const value = header(headers, info.signatureHeader);
  if (value === null || secret === '') return false;
  if (info.signature === 'token') return safeEqual(value, secret);
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(value);
  return m !== null && hmacVerifyHex(secret, raw, m[1]);
}

/** The delivery id, or a digest of the body when the host sent none (a redelivery repeats the body). */
export function deliveryKey(
  info: HostInfo,
  headers: Headers,
  raw: Buffer,
): { id: string | null; key: string } {
  const id = header(headers, info.deliveryHeader);
  if (id) return { id: id.slice(0, 200), key: id.slice(0, 200) };
  return { id: null, key: `sha256:${createHash('sha256').update(raw).digest('hex')}` };
}

const SECRET_HEADERS =
  /^(x-hub-signature(-256)?|x-gitlab-token|authorization|proxy-authorization|cookie|x-.*-(token|secret|signature))$/i;
const MAX_HEADERS = 100;
const MAX_HEADER_VALUE = 1000;

/** Request headers as stored with a delivery: secrets replaced by `[redacted]`, sizes bounded. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, MAX_HEADERS)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    out[name] = SECRET_HEADERS.test(name) ? '[redacted]' : text.slice(0, MAX_HEADER_VALUE);
  }
  return out;
}

/**
 * The JSON document of a delivery. GitHub can also post `application/x-www-form-urlencoded` with the JSON in
 * a `payload` field; the signature covers the raw body either way.
 */
export function decodeBody(raw: Buffer, contentType: string | null): unknown {
  let text = raw.toString('utf8');
  if ((contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) throw new PayloadError('a form-encoded delivery needs a "payload" field');
    text = payload;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new PayloadError('the body is not valid JSON');
  }
}

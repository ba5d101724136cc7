// The control plane as an OIDC token issuer for its jobs (gocdnext's `id_tokens`, docs/ci-gocdnext.md):
// RS256 signing keys generated at first use and kept in `server_settings` with the private half sealed by
// the server's secret box (like every server secret), the discovery document and JWKS a cloud reads to
// verify a token, minting at dispatch, and key rotation (graceful: the old key keeps verifying until the
// tokens it signed have expired; emergency: it leaves the JWKS at once).
//
// Keys are cached for a minute so another replica's rotation is picked up without a restart.
import { randomUUID } from 'node:crypto';
import type { SecretBox } from '@app/kit';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import type { StoreDb } from '../store/database.js';
import { insertServerSettingIfAbsent, readServerSetting, writeServerSetting } from '../store/settings.js';
import { contextClaims, subjectOf, type TokenFacts } from './claims.js';

type SigningKey = Awaited<ReturnType<typeof importJWK>>;

const SETTING = 'id_token_signing_keys';
const ALG = 'RS256';
/** Tokens live an hour (gocdnext's default); a minute of `nbf` backdate absorbs clock skew. */
export const TOKEN_TTL_MS = 3600_000;
const SKEW_S = 60;
const CACHE_MS = 60_000;
const aad = (kid: string) => `id-token-signing-key:${kid}`;

interface StoredKey {
  kid: string;
  created_at: string;
  /** When a newer key replaced it; it stays in the JWKS until `retired_at` + the token lifetime. */
  retired_at: string | null;
  public_jwk: JWK;
  private_sealed: string;
}

interface KeyDocument {
  keys: StoredKey[];
}

/** Key lifecycle as the admin API lists it (never key material). */
export interface KeyInfo {
  kid: string;
  alg: string;
  created_at: string;
  retired_at: string | null;
  active: boolean;
  /** Whether the JWKS still publishes it. */
  published: boolean;
}

export interface IssuerOptions {
  db: StoreDb;
  box: SecretBox;
  /** The server's public base URL: the `iss` claim and the base of the discovery document. */
  issuer: string;
  ttlMs?: number;
  now?: () => number;
}

export class IdTokenIssuer {
  readonly issuer: string;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private cache: { doc: KeyDocument; at: number } | null = null;
  private signer: { kid: string; key: SigningKey } | null = null;

  constructor(private readonly options: IssuerOptions) {
    this.issuer = options.issuer.replace(/\/+$/, '');
    this.ttlMs = options.ttlMs ?? TOKEN_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** `/.well-known/openid-configuration`: what a verifier needs (issuer, keys, algorithm, claims). */
  discovery(): Record<string, unknown> {
    return {
      issuer: this.issuer,
      jwks_uri: `${this.issuer}/.well-known/jwks.json`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [ALG],
      scopes_supported: ['openid'],
      claims_supported: [
        'iss',
        'sub',
        'aud',
        'exp',
        'iat',
        'nbf',
        'jti',
        'project_slug',
        'project_id',
        'pipeline',
        'pipeline_id',
        'job',
        'run_id',
        'run_counter',
        'cause',
        'ref',
        'ref_type',
        'sha',
        'matrix_key',
      ],
    };
  }

  /** The public keys a token may be signed with: the active one and retired ones whose tokens still live. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const doc = await this.document();
    return { keys: doc.keys.filter((k) => this.published(k)).map((k) => k.public_jwk) };
  }

  async keys(): Promise<KeyInfo[]> {
    const doc = await this.document(true);
    return doc.keys.map((k, i) => ({
      kid: k.kid,
      alg: ALG,
      created_at: k.created_at,
      retired_at: k.retired_at,
      active: i === 0,
      published: this.published(k),
    }));
  }

  /** A signed token for `aud` about the job the facts describe; `exp` is one token lifetime away. */
  async mint(aud: readonly string[], facts: TokenFacts): Promise<string> {
    const signer = await this.activeSigner();
    const now = Math.floor(this.now() / 1000);
    return new SignJWT({ ...contextClaims(facts) })
      .setProtectedHeader({ alg: ALG, kid: signer.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(subjectOf(facts))
      .setAudience(aud.length === 1 ? aud[0] : [...aud])
      .setIssuedAt(now)
      .setNotBefore(now - SKEW_S)
      .setExpirationTime(now + Math.floor(this.ttlMs / 1000))
      .setJti(randomUUID())
      .sign(signer.key);
  }

  /**
   * A new active key. `graceful` keeps the old one published until the tokens it signed have expired;
   * `emergency` (a leaked key) drops every older key from the JWKS now, so their tokens stop verifying.
   */
  async rotate(mode: 'graceful' | 'emergency'): Promise<KeyInfo> {
    const doc = await this.document(true);
    const at = new Date(this.now()).toISOString();
    const fresh = await this.generate();
    const older = doc.keys
      .map((k) => ({ ...k, retired_at: k.retired_at ?? at }))
      .filter((k) => mode === 'graceful' && this.published(k));
    const next: KeyDocument = { keys: [fresh, ...older] };
    await writeServerSetting(this.options.db, SETTING, JSON.stringify(next));
    this.cache = { doc: next, at: this.now() };
    this.signer = null;
    return (await this.keys())[0];
  }

  private published(k: StoredKey): boolean {
    return k.retired_at === null || Date.parse(k.retired_at) + this.ttlMs + SKEW_S * 1000 > this.now();
  }

  private async activeSigner(): Promise<{ kid: string; key: SigningKey }> {
    const doc = await this.document();
    const active = doc.keys[0];
    if (this.signer?.kid === active.kid) return this.signer;
    const jwk = JSON.parse(this.options.box.open(active.private_sealed, aad(active.kid))) as JWK;
    const key = await importJWK(jwk, ALG);
    this.signer = { kid: active.kid, key };
    return this.signer;
  }

  /** The stored keys (cached), generating the first one when there is none; `fresh` skips the cache. */
  private async document(fresh = false): Promise<KeyDocument> {
    if (!fresh && this.cache && this.now() - this.cache.at < CACHE_MS) return this.cache.doc;
    let text = await readServerSetting(this.options.db, SETTING);
    if (text === undefined) {
      const first: KeyDocument = { keys: [await this.generate()] };
      // Two replicas starting together: whichever inserts first wins, the other reads its key.
      await insertServerSettingIfAbsent(this.options.db, SETTING, JSON.stringify(first));
      text = (await readServerSetting(this.options.db, SETTING)) as string;
    }
    const doc = JSON.parse(text) as KeyDocument;
    this.cache = { doc, at: this.now() };
    return doc;
  }

  private async generate(): Promise<StoredKey> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { modulusLength: 2048, extractable: true });
    const kid = randomUUID();
    const pub = await exportJWK(publicKey);
    const priv = await exportJWK(privateKey);
    return {
      kid,
      created_at: new Date(this.now()).toISOString(),
      retired_at: null,
      public_jwk: { ...pub, kid, alg: ALG, use: 'sig' },
      private_sealed: this.options.box.seal(JSON.stringify(priv), aad(kid)),
    };
  }
}

// First-boot secrets of the portal's sign-in: `JWT_SECRET` and `ADMIN_PASSWORD`. Taken from the environment
// when set; otherwise generated once into `PORTAL_DATA_DIR/auth-bootstrap.json` (mode 0600) and reused on later
// boots, unless `AUTH_BOOTSTRAP` is off. A `JWT_SECRET` under 32 characters stops the process (exit code 1).
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  linkSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@app/kit';
import type { PortalSettings } from './config.js';

export const AUTH_BOOTSTRAP_FILE = 'auth-bootstrap.json';
export const MIN_JWT_SECRET_LENGTH = 32;

/** A startup failure that is not a configuration-shape problem; main.ts exits with code 1 on it. */
export class StartupError extends Error {
  override name = 'StartupError';
}

export interface AuthSecrets {
  jwtSecret: string;
  adminPassword: string;
  /** Lines to print exactly once: only values generated during this start. */
  announcements: string[];
}

type Key = 'JWT_SECRET' | 'ADMIN_PASSWORD';
const GENERATORS: Record<Key, () => string> = {
  // 48 random bytes → 64 base64url characters, well over the 32-character minimum.
  JWT_SECRET: () => randomBytes(48).toString('base64url'),
  // 18 random bytes → 24 characters: 144 bits, typeable, no ambiguous punctuation.
  ADMIN_PASSWORD: () => randomBytes(18).toString('base64url'),
};

function checkJwtSecret(value: string, source: string): void {
  if (value.length < MIN_JWT_SECRET_LENGTH) {
    throw new StartupError(
      `JWT_SECRET (${source}) must be at least ${MIN_JWT_SECRET_LENGTH} characters long (got ${value.length})`,
    );
  }
}

function readStore(path: string): Partial<Record<Key, string>> {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new StartupError(`${path} is not readable JSON (${(err as Error).message}); fix or remove it`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new StartupError(`${path} must hold a JSON object such as {"JWT_SECRET": "…"}`);
  }
  const out: Partial<Record<Key, string>> = {};
  for (const key of Object.keys(GENERATORS) as Key[]) {
    const v = (doc as Record<string, unknown>)[key];
    if (typeof v === 'string' && v !== '') out[key] = v;
  }
  // Tighten a file someone loosened; the secrets in it sign every session.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return out;
}

/** Writes the store with mode 0600: exclusively when new (a concurrent first boot wins once), else atomically. */
function writeStore(path: string, values: Partial<Record<Key, string>>, exists: boolean): boolean {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(tmp, 0o600);
  try {
    if (exists) {
      renameSync(tmp, path);
      return true;
    }
    try {
      linkSync(tmp, path);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  } finally {
    if (existsSync(tmp)) unlinkSync(tmp);
  }
}

export function bootstrapAuthSecrets(settings: PortalSettings): AuthSecrets {
  const given: Partial<Record<Key, string>> = {
    JWT_SECRET: settings.jwtSecret,
    ADMIN_PASSWORD: settings.adminPassword,
  };
  if (given.JWT_SECRET) checkJwtSecret(given.JWT_SECRET, 'environment');
  const missing = (Object.keys(GENERATORS) as Key[]).filter((k) => !given[k]);
  if (missing.length === 0) {
    return { jwtSecret: given.JWT_SECRET!, adminPassword: given.ADMIN_PASSWORD!, announcements: [] };
  }
  if (!settings.authBootstrap) {
    throw new ConfigError(
      missing.map(
        (k) =>
          `${k}: required because AUTH_BOOTSTRAP is off (set it, or enable AUTH_BOOTSTRAP to generate it)`,
      ),
    );
  }

  const path = join(settings.dataDir, AUTH_BOOTSTRAP_FILE);
  const resolved = { ...given };
  for (let attempt = 0; attempt < 3; attempt++) {
    const exists = existsSync(path);
    const stored = exists ? readStore(path) : {};
    const generated: Key[] = [];
    for (const k of missing) {
      if (stored[k]) resolved[k] = stored[k];
      else {
        stored[k] = GENERATORS[k]();
        resolved[k] = stored[k];
        generated.push(k);
      }
    }
    if (resolved.JWT_SECRET && !given.JWT_SECRET) checkJwtSecret(resolved.JWT_SECRET, path);
    // Another process created the file between our read and our write: read theirs instead.
    if (generated.length > 0 && !writeStore(path, stored, exists)) continue;
    const announcements: string[] = [];
    if (generated.includes('ADMIN_PASSWORD')) {
      announcements.push(
        `Generated ADMIN_PASSWORD for ${settings.adminEmail}: ${resolved.ADMIN_PASSWORD} ` +
          `(kept in ${path}, mode 0600; set ADMIN_PASSWORD to choose your own)`,
      );
    }
    if (generated.includes('JWT_SECRET')) {
      announcements.push(`Generated JWT_SECRET (kept in ${path}, mode 0600)`);
    }
    return {
      jwtSecret: resolved.JWT_SECRET!,
      adminPassword: resolved.ADMIN_PASSWORD!,
      announcements,
    };
  }
  throw new StartupError(`could not create ${path}: another process keeps replacing it`);
}

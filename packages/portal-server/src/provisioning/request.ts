// Checks the body of the account routes (JSON types checked, never coerced; at most 100 schemas). Pure.
import { HttpError } from '@app/kit';
import type { AccountRequest } from './types.js';
import { VAULT_PATH } from './vault.js';

export const MAX_SCHEMAS = 100;
const NAME_MAX = 128;

const bad = (message: string) => new HttpError(400, message, 'BAD_REQUEST');

export function parseAccountBody(v: unknown): AccountRequest {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('The body must be a JSON object');
  const b = v as Record<string, unknown>;
  if (b.profile !== 'read' && b.profile !== 'readwrite') throw bad('profile must be "read" or "readwrite"');
  if (!Array.isArray(b.schemas) || b.schemas.length === 0)
    throw bad('schemas must be a non-empty array of schema names');
  if (b.schemas.length > MAX_SCHEMAS) throw bad(`schemas holds at most ${MAX_SCHEMAS} names`);
  const schemas = b.schemas.map((s, i) => {
    if (typeof s !== 'string' || s.trim() === '' || s.length > NAME_MAX) {
      throw bad(`schemas[${i}] must be a non-empty string of at most ${NAME_MAX} characters`);
    }
    return s.trim();
  });
  if (b.agent !== undefined && typeof b.agent !== 'boolean') throw bad('agent must be a boolean');
  let bootstrap: AccountRequest['bootstrap'];
  if (b.bootstrap !== undefined && b.bootstrap !== null) {
    const bs = b.bootstrap as Record<string, unknown>;
    if (typeof bs !== 'object' || Array.isArray(bs))
      throw bad('bootstrap must be an object {user, password}');
    if (typeof bs.user !== 'string' || bs.user === '' || bs.user.length > NAME_MAX)
      throw bad('bootstrap.user must be a non-empty string');
    if (typeof bs.password !== 'string' || bs.password.length > 1024)
      throw bad('bootstrap.password must be a string');
    bootstrap = { user: bs.user, password: bs.password };
  }
  let vaultPath: string | undefined;
  if (b.vaultPath !== undefined && b.vaultPath !== null) {
    if (typeof b.vaultPath !== 'string' || b.vaultPath.length > 200 || !VAULT_PATH.test(b.vaultPath)) {
      throw bad(
        'vaultPath must be a KV path of segments [A-Za-z0-9_.-] separated by "/" (at most 200 characters)',
      );
    }
    vaultPath = b.vaultPath;
  }
  return {
    profile: b.profile,
    schemas: [...new Set(schemas)],
    agent: b.agent === true,
    bootstrap,
    vaultPath,
  };
}

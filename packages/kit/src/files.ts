// Generated secrets kept in a service's data directory with mode 0600: created once, read back after.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Returns the value stored in `path`, or stores `generate()` there (mode 0600) and reports it as new so the
 * caller can print it exactly once.
 */
export function readOrCreateSecretFile(
  path: string,
  generate: () => string,
): { value: string; created: boolean } {
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), created: false };
  mkdirSync(dirname(path), { recursive: true });
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return { value, created: true };
}

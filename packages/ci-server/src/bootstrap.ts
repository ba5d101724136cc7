// First-start secrets of the control plane: the agent registration token and the key that encrypts secrets
// at rest. Taken from the settings when given, otherwise generated once into CI_DATA_DIR (mode 0600).
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomHex, randomToken, readOrCreateSecretFile } from '@app/kit';
import type { CiSettings } from './config.js';

export interface BootstrapSecrets {
  agentToken: string;
  secretKey: string;
  /** Human-readable lines to print once, for values generated during this start. */
  announcements: string[];
}

export const AGENT_TOKEN_FILE = 'agent-token';
export const SECRET_KEY_FILE = 'secret-key';

export function bootstrapSecrets(settings: CiSettings): BootstrapSecrets {
  const announcements: string[] = [];
  let agentToken = settings.agentToken;
  if (!agentToken) {
    const path = join(settings.dataDir, AGENT_TOKEN_FILE);
    const stored = readOrCreateSecretFile(path, () => randomToken('cia_', 32));
    agentToken = stored.value;
    if (stored.created)
      announcements.push(`Generated agent registration token (CI_AGENT_TOKEN), stored in ${path}`);
  }
  let secretKey = settings.secretKey;
  if (!secretKey) {
    const path = join(settings.dataDir, SECRET_KEY_FILE);
    const stored = readOrCreateSecretFile(path, () => randomHex(32));
    secretKey = stored.value;
    if (stored.created)
      announcements.push(`Generated the secret-encryption key (CI_SECRET_KEY), stored in ${path}`);
  }
  return { agentToken, secretKey, announcements };
}

/** Replaces a secret file's value (a rotated registration token), keeping mode 0600. */
export function writeSecretFile(path: string, value: string): void {
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

// What an agent remembers about itself between runs: the credential the control plane gave it at its first
// registration, and the fingerprint of each server's TLS certificate it trusted on first use (keyed by
// host:port, as SSH's known_hosts). The file lives in the agent's work directory with mode 0600; tests and
// embedded agents keep the same record in memory.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface AgentIdentityRecord {
  /** The agent's own credential (`ciac_…`); absent until the first registration. */
  credential?: string;
  /** The agent name the credential belongs to. */
  name?: string;
  /** host:port → SHA-256 fingerprint of the certificate pinned on first use. */
  servers: Record<string, string>;
}

export interface AgentIdentityStore {
  /** Where the record is kept, for messages ("delete … to register again"); undefined in memory. */
  readonly path?: string;
  read(): AgentIdentityRecord;
  write(record: AgentIdentityRecord): void;
}

export class MemoryIdentityStore implements AgentIdentityStore {
  private record: AgentIdentityRecord = { servers: {} };
  read(): AgentIdentityRecord {
    return structuredClone(this.record);
  }
  write(record: AgentIdentityRecord): void {
    this.record = structuredClone(record);
  }
}

export const IDENTITY_FILE = 'agent-identity.json';

export class FileIdentityStore implements AgentIdentityStore {
  constructor(readonly path: string) {}

  read(): AgentIdentityRecord {
    if (!existsSync(this.path)) return { servers: {} };
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (err) {
      throw new Error(`the agent identity file ${this.path} is not valid JSON (${(err as Error).message})`);
    }
    const r = (parsed ?? {}) as Partial<AgentIdentityRecord>;
    return {
      credential: typeof r.credential === 'string' ? r.credential : undefined,
      name: typeof r.name === 'string' ? r.name : undefined,
      servers: r.servers && typeof r.servers === 'object' ? { ...r.servers } : {},
    };
  }

  /** Written to a temporary file and renamed, so a crash never leaves half a credential. */
  write(record: AgentIdentityRecord): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.path);
  }
}

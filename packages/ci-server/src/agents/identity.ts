// Who may speak the agent protocol. An agent registers once with the shared registration token and is given
// its own credential (`ciac_…`, stored here only as a SHA-256 hash); on every later connection it presents
// that credential instead. The registration token can be rotated by an admin (the new one is kept as a hash
// in server_settings, so every replica sees it) without touching running agents, which use their
// credentials. A revoked agent's credential is refused, and its name cannot be registered again.
import { randomUUID } from 'node:crypto';
import { hashToken, randomToken, safeEqual } from '@app/kit';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  agentByCredential,
  agentByName,
  clearRotatedToken,
  readRotatedToken,
  setCredentialHash,
  writeRotatedToken,
} from '../store/agent-identity.js';
import { insertAudit } from '../store/auth-audit.js';
import type { StoreDb } from '../store/database.js';

/** Prefix of an agent's own credential (the registration token's is `cia_`). */
export const CREDENTIAL_PREFIX = 'ciac_';

/** How the caller of Register proved who it is. */
export type AgentProof = { kind: 'credential'; agentId: string; name: string } | { kind: 'token' };

export const REVOKED_MESSAGE =
  'this agent was revoked by an administrator; its credential is no longer accepted';

/**
 * Trailer telling the agent why its credential was refused: `revoked` (it must stop) or `unknown` (the
 * server does not know it — a store that was reset — so the agent may register again with the token).
 */
export const CREDENTIAL_STATUS_HEADER = 'x-agent-credential';

export const revokedError = () =>
  new ConnectError(REVOKED_MESSAGE, Code.Unauthenticated, { [CREDENTIAL_STATUS_HEADER]: 'revoked' });

export interface AgentIdentityOptions {
  db: StoreDb;
  /** The configured registration token (CI_AGENT_TOKEN, CI_CONFIG `agent_token`, or the data-dir file). */
  configuredToken: string;
  /** Called after a rotation when the configured token came from the data-dir file (so it is rewritten). */
  onRotated?(token: string): void;
}

export class AgentIdentity {
  private readonly configuredHash: string;

  constructor(private readonly options: AgentIdentityOptions) {
    this.configuredHash = hashToken(options.configuredToken);
  }

  /**
   * At start: a rotated token stays in force while the configured token is the one it replaced; an operator
   * who changed the configured token since (a restart with a new CI_AGENT_TOKEN) has the last word.
   */
  async start(): Promise<void> {
    const rotated = await readRotatedToken(this.options.db);
    if (rotated && rotated.configured_hash !== this.configuredHash && rotated.hash !== this.configuredHash)
      await clearRotatedToken(this.options.db);
  }

  /** Checks the bearer of a Register call: an agent credential, or the registration token in force. */
  async authenticate(bearer: string): Promise<AgentProof> {
    if (!bearer) throw new ConnectError('missing agent token or credential', Code.Unauthenticated);
    if (bearer.startsWith(CREDENTIAL_PREFIX)) {
      const owner = await agentByCredential(this.options.db, hashToken(bearer));
      if (!owner)
        throw new ConnectError(
          'unknown agent credential (replaced by a newer registration under the same name, or from a server ' +
            'whose store was reset)',
          Code.Unauthenticated,
          { [CREDENTIAL_STATUS_HEADER]: 'unknown' },
        );
      if (owner.revoked_at) throw revokedError();
      return { kind: 'credential', agentId: owner.id, name: owner.name };
    }
    const rotated = await readRotatedToken(this.options.db);
    const inForce =
      rotated && rotated.configured_hash === this.configuredHash ? rotated.hash : this.configuredHash;
    if (!safeEqual(hashToken(bearer), inForce))
      throw new ConnectError('invalid agent registration token', Code.Unauthenticated);
    return { kind: 'token' };
  }

  /** A token registration under `name`: refused when that agent was revoked. */
  async admit(name: string): Promise<void> {
    const row = await agentByName(this.options.db, name);
    if (row?.revoked_at)
      throw new ConnectError(
        `agent name "${name}" was revoked by an administrator; register under another name (CI_AGENT_NAME)`,
        Code.PermissionDenied,
        { [CREDENTIAL_STATUS_HEADER]: 'revoked' },
      );
  }

  /** Mints the agent's credential (replacing any earlier one) and records the registration in the audit log. */
  async issueCredential(agentId: string, name: string): Promise<string> {
    const credential = randomToken(CREDENTIAL_PREFIX, 32);
    if (!(await setCredentialHash(this.options.db, agentId, hashToken(credential)))) throw revokedError();
    await this.audit('agent.register', `agent:${agentId}`, { name });
    return credential;
  }

  /**
   * A new registration token; the old one is refused from now on. Running agents are not touched. (The
   * admin route that calls this is recorded by the HTTP audit hook.)
   */
  async rotate(): Promise<{ token: string; rotated_at: string }> {
    const token = randomToken('cia_', 32);
    const rotated_at = new Date().toISOString();
    await writeRotatedToken(this.options.db, {
      hash: hashToken(token),
      rotated_at,
      configured_hash: this.configuredHash,
    });
    this.options.onRotated?.(token);
    return { token, rotated_at };
  }

  /** An audit entry for what happens over gRPC (no HTTP request records it). */
  async audit(action: string, target: string | null, details: Record<string, unknown>) {
    await insertAudit(this.options.db, {
      id: randomUUID(),
      at: new Date().toISOString(),
      actor: 'agent',
      action,
      target,
      status: 200,
      details,
    });
  }
}

// The build agent's settings (spec/RUNTIME.md, "Agent"; the TLS trust settings are in docs/ci-agents.md).
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { type ConfigOf, loadConfig } from '@app/kit';

export const agentConfigSpec = {
  server: { env: 'CI_SERVER', kind: 'string', default: '127.0.0.1:8154' },
  token: { env: 'CI_AGENT_TOKEN', kind: 'string', secret: true },
  name: { env: 'CI_AGENT_NAME', kind: 'string' },
  tags: { env: 'CI_AGENT_TAGS', kind: 'string', default: '' },
  capacity: { env: 'CI_AGENT_CAPACITY', kind: 'int', default: 2, min: 1, max: 256 },
  workdir: { env: 'CI_AGENT_WORKDIR', kind: 'string', default: './.data/agent' },
  /** SHA-256 fingerprint the server's certificate must have (instead of pinning on first use). */
  serverFingerprint: { env: 'CI_SERVER_FINGERPRINT', kind: 'string' },
  /** PEM file of the CA that signed the server's certificate (ordinary verification instead of a pin). */
  serverCa: { env: 'CI_SERVER_CA', kind: 'string' },
} as const;

export interface AgentSettings extends Omit<ConfigOf<typeof agentConfigSpec>, 'tags' | 'name'> {
  name: string;
  tags: string[];
  token: string;
  /** Base URL of the control plane's gRPC endpoint: https:// (TLS, the default) or http:// (cleartext). */
  serverUrl: string;
}

export function loadAgentSettings(env: NodeJS.ProcessEnv = process.env): AgentSettings {
  const cfg = loadConfig({ ...agentConfigSpec, token: { ...agentConfigSpec.token, required: true } }, env);
  const server = cfg.server.trim();
  return {
    ...cfg,
    token: cfg.token as string,
    name: cfg.name?.trim() || hostname(),
    tags: cfg.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    workdir: resolve(cfg.workdir),
    // TLS unless the address says http:// explicitly (a server started with CI_GRPC_TLS=off).
    serverUrl: /^https?:\/\//.test(server) ? server : `https://${server}`,
  };
}

// The build agent's settings (spec/RUNTIME.md, "Agent"; the TLS trust settings are in docs/ci-agents.md).
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError, type ConfigOf, loadConfig } from '@app/kit';

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
  /** Engine of jobs without an image: `sandbox` (bubblewrap) or `host` (no isolation: an operator's opt-in). */
  plainEngine: { env: 'CI_AGENT_PLAIN_ENGINE', kind: 'string', default: 'sandbox' },
  /** Comma-separated paths hidden inside the sandbox besides the agent's work directory. */
  sandboxHide: { env: 'CI_AGENT_SANDBOX_HIDE', kind: 'string', default: '' },
  /** Comma-separated absolute host paths every sandboxed job sees read-only (e.g. a toolchain under /opt). */
  sandboxExpose: { env: 'CI_AGENT_SANDBOX_EXPOSE', kind: 'string', default: '' },
  /** Look for podman (false: this agent runs no container jobs). */
  podman: { env: 'CI_AGENT_PODMAN', kind: 'bool', default: true },
  /** OCI runtime podman uses; runc where crun refuses hybrid cgroups. */
  podmanRuntime: { env: 'CI_AGENT_PODMAN_RUNTIME', kind: 'string', default: 'runc' },
  /** Comma-separated `--ulimit` values of every container. */
  containerUlimits: {
    env: 'CI_AGENT_CONTAINER_ULIMITS',
    kind: 'string',
    default: 'nofile=1024:1024,nproc=1000:1000',
  },
  containerCpus: { env: 'CI_AGENT_CONTAINER_CPUS', kind: 'string' },
  containerMemory: { env: 'CI_AGENT_CONTAINER_MEMORY', kind: 'string' },
  containerPids: { env: 'CI_AGENT_CONTAINER_PIDS', kind: 'int', default: 4096, min: 0, max: 4_194_304 },
} as const;

const list = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

export interface AgentSettings
  extends Omit<
    ConfigOf<typeof agentConfigSpec>,
    'tags' | 'name' | 'plainEngine' | 'sandboxHide' | 'sandboxExpose' | 'containerUlimits'
  > {
  name: string;
  tags: string[];
  plainEngine: 'sandbox' | 'host';
  sandboxHide: string[];
  sandboxExpose: string[];
  containerUlimits: string[];
  token: string;
  /** Base URL of the control plane's gRPC endpoint: https:// (TLS, the default) or http:// (cleartext). */
  serverUrl: string;
}

export function loadAgentSettings(env: NodeJS.ProcessEnv = process.env): AgentSettings {
  const cfg = loadConfig({ ...agentConfigSpec, token: { ...agentConfigSpec.token, required: true } }, env);
  const server = cfg.server.trim();
  const plain = cfg.plainEngine.trim();
  if (plain !== 'sandbox' && plain !== 'host')
    throw new ConfigError([`CI_AGENT_PLAIN_ENGINE: expected sandbox or host, got "${plain}"`]);
  const relative = list(cfg.sandboxExpose).filter((p) => !p.startsWith('/'));
  if (relative.length > 0)
    throw new ConfigError([`CI_AGENT_SANDBOX_EXPOSE: paths must be absolute, got ${relative.join(', ')}`]);
  return {
    ...cfg,
    token: cfg.token as string,
    name: cfg.name?.trim() || hostname(),
    tags: list(cfg.tags),
    plainEngine: plain,
    sandboxHide: list(cfg.sandboxHide),
    sandboxExpose: list(cfg.sandboxExpose),
    containerUlimits: list(cfg.containerUlimits),
    workdir: resolve(cfg.workdir),
    // TLS unless the address says http:// explicitly (a server started with CI_GRPC_TLS=off).
    serverUrl: /^https?:\/\//.test(server) ? server : `https://${server}`,
  };
}

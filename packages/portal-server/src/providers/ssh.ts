// SSH tunnels (ssh2): a loopback listener on 127.0.0.1:<random> whose connections are forwarded through the
// bastion to the database host. A descriptor carries either `sshTunnel` (inline) or `sshProfile` (the name of
// a bastion declared once in the server's YAML file named by PORTAL_SSH_PROFILES). One tunnel per provider,
// closed with it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { parse as parseYaml } from 'yaml';
import { configError, ProviderError } from './errors.js';
import type { SshTunnelConfig } from './types.js';

export interface Tunnel {
  host: string;
  port: number;
  /**
   * Another address behind the bastion, over the same SSH connection: a new loopback listener forwarding to
   * it (an engine that discovers a second service at run time, e.g. Couchbase's query port). Closed with
   * the tunnel.
   */
  forward(target: { host: string; port: number }): Promise<{ host: string; port: number }>;
  close(): Promise<void>;
}

/** Reads `{profiles: {name: SshTunnelConfig}}` from the YAML file; re-read on each lookup (small, rare). */
export function sshProfilesFromFile(path: string | undefined): (name: string) => SshTunnelConfig | undefined {
  return (name) => {
    if (!path) return undefined;
    try {
      const doc = parseYaml(readFileSync(path, 'utf8')) as { profiles?: Record<string, SshTunnelConfig> };
      return doc?.profiles?.[name];
    } catch {
      return undefined;
    }
  };
}

export function validateSsh(cfg: SshTunnelConfig): void {
  if (typeof cfg !== 'object' || cfg === null) throw configError('sshTunnel must be an object');
  if (typeof cfg.host !== 'string' || cfg.host === '') throw configError('sshTunnel.host is required');
  if (typeof cfg.username !== 'string' || cfg.username === '')
    throw configError('sshTunnel.username is required');
  if (cfg.port !== undefined && (!Number.isInteger(cfg.port) || cfg.port < 1 || cfg.port > 65535)) {
    throw configError('sshTunnel.port must be a port number');
  }
  if (!cfg.password && !cfg.privateKey) throw configError('sshTunnel needs a password or a privateKey');
}

export async function openTunnel(
  cfg: SshTunnelConfig,
  target: { host: string; port: number },
  timeoutMs: number,
): Promise<Tunnel> {
  validateSsh(cfg);
  // ssh2 loads on the first tunnel: most portals never open one.
  const { Client } = await import('ssh2');
  const ssh = new Client();
  await new Promise<void>((resolve, reject) => {
    ssh.once('ready', () => resolve());
    ssh.once('error', (err) => reject(new ProviderError('connection', `SSH tunnel: ${err.message}`)));
    ssh.connect({
      host: cfg.host,
      port: cfg.port ?? 22,
      username: cfg.username,
      password: cfg.password,
      privateKey: cfg.privateKey,
      passphrase: cfg.passphrase,
      readyTimeout: timeoutMs,
      keepaliveInterval: 30_000,
      hostVerifier: cfg.hostKeySha256
        ? (key: Buffer) =>
            createHash('sha256').update(key).digest('base64').replace(/=+$/, '') ===
            cfg.hostKeySha256?.replace(/^SHA256:/, '').replace(/=+$/, '')
        : undefined,
    });
  });
  const listeners: Server[] = [];
  const listen = async (target: { host: string; port: number }) => {
    const server: Server = createServer((sock) => {
      ssh.forwardOut(
        sock.remoteAddress ?? '127.0.0.1',
        sock.remotePort ?? 0,
        target.host,
        target.port,
        (err, stream) => {
          if (err) {
            sock.destroy();
            return;
          }
          sock.pipe(stream).pipe(sock);
          stream.on('error', () => sock.destroy());
          sock.on('error', () => stream.destroy());
        },
      );
    });
    listeners.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    return { host: '127.0.0.1', port: typeof addr === 'object' && addr ? addr.port : 0 };
  };
  const closeAll = () =>
    Promise.all(listeners.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  const primary = await listen(target);
  ssh.on('close', () => void closeAll());
  // One listener per address, however often an engine asks for it.
  const forwarded = new Map<string, Promise<{ host: string; port: number }>>();
  return {
    ...primary,
    forward: (t) => {
      const key = `${t.host}:${t.port}`;
      let reached = forwarded.get(key);
      if (!reached) {
        reached = listen(t);
        forwarded.set(key, reached);
      }
      return reached;
    },
    close: async () => {
      await closeAll();
      ssh.end();
    },
  };
}

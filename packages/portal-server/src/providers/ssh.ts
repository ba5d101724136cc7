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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  ssh.on('close', () => server.close());
  return {
    host: '127.0.0.1',
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      ssh.end();
    },
  };
}

// A local test double of HashiCorp Vault's KV version 2 HTTP API on loopback (no Vault server can be
// installed here): `POST|PUT /v1/{mount}/data/{path}` with `X-Vault-Token` and `{"data": {...}}` stores a new
// version and answers `{"data": {"created_time", "deletion_time": "", "destroyed": false, "version"}}`;
// `GET` of the same path answers `{"data": {"data", "metadata": {version}}}`; a wrong token answers 403
// `{"errors": ["permission denied"]}`, an unknown mount 404 `{"errors": []}`, as Vault does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface VaultDouble {
  addr: string;
  token: string;
  /** Latest data per `mount/path`. */
  secrets: Map<string, { data: Record<string, unknown>; version: number }>;
  requests: number;
  close(): Promise<void>;
}

export async function startVaultDouble(
  options: { token?: string; mount?: string } = {},
): Promise<VaultDouble> {
  const token = options.token ?? 'vault-test-token';
  const mount = options.mount ?? 'secret';
  const secrets = new Map<string, { data: Record<string, unknown>; version: number }>();
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers['x-vault-token'] !== token) return send(403, { errors: ['permission denied'] });
      const m = /^\/v1\/([^/]+)\/data\/(.+)$/.exec(req.url ?? '');
      if (!m || decodeURIComponent(m[1]) !== mount) return send(404, { errors: [] });
      const key = `${mount}/${m[2].split('/').map(decodeURIComponent).join('/')}`;
      if (req.method === 'GET') {
        const s = secrets.get(key);
        return s
          ? send(200, { data: { data: s.data, metadata: { version: s.version } } })
          : send(404, { errors: [] });
      }
      if (req.method !== 'POST' && req.method !== 'PUT')
        return send(405, { errors: ['unsupported operation'] });
      let body: { data?: unknown };
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, { errors: ['failed to parse JSON input'] });
      }
      if (typeof body.data !== 'object' || body.data === null)
        return send(400, { errors: ['no data provided'] });
      const version = (secrets.get(key)?.version ?? 0) + 1;
      secrets.set(key, { data: body.data as Record<string, unknown>, version });
      send(200, {
        data: { created_time: new Date().toISOString(), deletion_time: '', destroyed: false, version },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    addr: `http://127.0.0.1:${port}`,
    token,
    secrets,
    get requests() {
      return state.requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// SSH tunnels against an in-process SSH server (ssh2's own server, password auth, direct-tcpip forwarding to
// the harness PostgreSQL): inline `sshTunnel`, a named `sshProfile` from the server's YAML file, a wrong
// password and a wrong host key; and Couchbase, whose query port is discovered behind the bastion (a host
// name only the SSH server resolves) and forwarded through the same tunnel.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createQueryDeps } from '../../src/execution/contracts.js';
import { openTunnel, sshProfilesFromFile } from '../../src/providers/ssh.js';
import { CouchbaseDouble } from '../doubles/couchbase.js';
import { descriptorFromUrl } from './harness.js';

let sshServer: ssh2.Server;
let sshPort: number;
let hostKeySha256: string;
let forwarded = 0;
/** Each forward's destination as the client asked for it. */
const destinations: string[] = [];
/** A database host name that only the bastion resolves (to loopback), as on a private network. */
const PRIVATE_HOST = 'couchbase.internal';

beforeAll(async () => {
  // ssh2 now and then generates an ed25519 key its own parser refuses (parseKey returns an Error): draw again.
  let keys = ssh2.utils.generateKeyPairSync('ed25519');
  let parsed = ssh2.utils.parseKey(keys.private);
  for (
    let i = 0;
    i < 10 && (parsed instanceof Error || (Array.isArray(parsed) && parsed[0] instanceof Error));
    i++
  ) {
    keys = ssh2.utils.generateKeyPairSync('ed25519');
    parsed = ssh2.utils.parseKey(keys.private);
  }
  const pub = (Array.isArray(parsed) ? parsed[0] : parsed) as { getPublicSSH(): Buffer };
  hostKeySha256 = createHash('sha256').update(pub.getPublicSSH()).digest('base64').replace(/=+$/, '');
  sshServer = new ssh2.Server({ hostKeys: [keys.private] }, (client) => {
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === 'tunnel' && ctx.password === 'secret') ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('tcpip', (accept, _reject, info) => {
        forwarded++;
        destinations.push(`${info.destIP}:${info.destPort}`);
        const stream = accept();
        const sock = netConnect(info.destPort, info.destIP === PRIVATE_HOST ? '127.0.0.1' : info.destIP);
        stream.pipe(sock).pipe(stream);
        sock.on('error', () => stream.destroy());
        stream.on('error', () => sock.destroy());
      });
    });
    client.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => sshServer.listen(0, '127.0.0.1', resolve));
  sshPort = (sshServer.address() as { port: number }).port;
});
/** The in-process SSH server as an inline `sshTunnel`, its host key pinned. */
const bastion = () => ({
  host: '127.0.0.1',
  port: sshPort,
  username: 'tunnel',
  password: 'secret',
  hostKeySha256,
});

afterAll(() => new Promise<void>((resolve) => (sshServer ? sshServer.close(() => resolve()) : resolve())));

describe('SSH tunnels', () => {
  it('runs statements through an inline sshTunnel and through a named sshProfile', async () => {
    const dir = tempDir('ssh-');
    const profiles = join(dir, 'ssh.yaml');
    writeFileSync(
      profiles,
      `profiles:\n  bastion:\n    host: 127.0.0.1\n    port: ${sshPort}\n    username: tunnel\n    password: secret\n`,
    );
    const deps = await createQueryDeps({
      dataDir: dir,
      sshProfilesFile: profiles,
      sessions: { requireSession: () => ({ username: 'a', role: 'user' }) },
      managed: { getManaged: () => undefined },
      audit: { record: () => undefined },
    });
    try {
      const base = descriptorFromUrl(inject('services').postgresUrl, 'postgres');
      const inline = {
        ...base,
        id: 'inline',
        sshTunnel: bastion(),
      };
      const r1 = await deps.providers.use(inline, (p) => p.query('SELECT 1 AS one', [], { maxRows: 10 }));
      expect(r1.rows).toEqual([{ one: 1 }]);
      const before = forwarded;
      const named = { ...base, id: 'named', sshProfile: 'bastion' };
      const r2 = await deps.providers.use(named, (p) => p.query('SELECT 2 AS two', [], { maxRows: 10 }));
      expect(r2.rows).toEqual([{ two: 2 }]);
      expect(forwarded).toBeGreaterThan(before);
      await expect(
        deps.providers.use({ ...base, id: 'x', sshProfile: 'nope' }, async () => 1),
      ).rejects.toThrow(/Unknown SSH profile/);
    } finally {
      await deps.close();
    }
  });

  it('reaches the query port Couchbase advertises through the same tunnel', async () => {
    const cb = new CouchbaseDouble({
      user: 'portal',
      password: 'secret-pw',
      bucket: 'shop',
      data: { inventory: { products: { p1: { name: 'Lamp' }, p2: { name: 'Desk' } } } },
    });
    await cb.start();
    const deps = await createQueryDeps({
      dataDir: tempDir('ssh-cb-'),
      sessions: { requireSession: () => ({ username: 'a', role: 'user' }) },
      managed: { getManaged: () => undefined },
      audit: { record: () => undefined },
    });
    try {
      const conn = {
        id: 'cb',
        type: 'couchbase',
        host: PRIVATE_HOST,
        port: cb.mgmtPort,
        user: 'portal',
        password: 'secret-pw',
        database: 'shop',
        sshTunnel: bastion(),
      };
      const r = await deps.providers.use(conn, (p) =>
        p.query('SELECT p.name FROM `shop`.`inventory`.`products` p ORDER BY p.name', [], { maxRows: 10 }),
      );
      expect(r.rows).toEqual([{ name: 'Desk' }, { name: 'Lamp' }]);
      // The management port and the discovered query port were both asked of the bastion, by the private
      // name: the portal itself cannot resolve it.
      expect(destinations).toContain(`${PRIVATE_HOST}:${cb.mgmtPort}`);
      expect(destinations).toContain(`${PRIVATE_HOST}:${cb.queryPort}`);
    } finally {
      await deps.close();
      await cb.stop();
    }
  });

  it('refuses a wrong password and a host key that does not match', async () => {
    const target = { host: '127.0.0.1', port: 5432 };
    await expect(
      openTunnel({ host: '127.0.0.1', port: sshPort, username: 'tunnel', password: 'wrong' }, target, 5000),
    ).rejects.toThrow(/SSH tunnel/);
    await expect(
      openTunnel(
        { host: '127.0.0.1', port: sshPort, username: 'tunnel', password: 'secret', hostKeySha256: 'AAAA' },
        target,
        5000,
      ),
    ).rejects.toThrow(/SSH tunnel/);
    await expect(openTunnel({ host: '127.0.0.1', username: 'tunnel' }, target, 5000)).rejects.toThrow(
      /password or a privateKey/,
    );
    expect(sshProfilesFromFile(undefined)('bastion')).toBeUndefined();
  });
});

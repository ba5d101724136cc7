// A callback receiver over HTTPS on loopback for the tests: a self-signed certificate made with `openssl`
// for 127.0.0.1 (the portal trusts it through its test-only `callbackCa` option), every request recorded
// with its headers and raw body, and a script of answers (a status, or `drop` to cut the connection).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';

export interface SelfSigned {
  cert: string;
  key: string;
}

export function selfSigned(): SelfSigned {
  const dir = tempDir('portal-tls-');
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

export interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Answers for the next requests, in order; after the script runs out every request gets 200. */
  script: Array<number | 'drop'>;
  close(): Promise<void>;
}

export async function receiver(tls: SelfSigned): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const script: Array<number | 'drop'> = [];
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        path: req.url ?? '',
      });
      const next = script.shift() ?? 200;
      if (next === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(next, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    deliveries,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

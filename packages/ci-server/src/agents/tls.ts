// The certificate the agent port serves. A certificate and key named in the settings (CI_GRPC_TLS_CERT /
// CI_GRPC_TLS_KEY, or CI_CONFIG `grpc_tls.cert` / `grpc_tls.key`) are used as they are; otherwise a
// self-signed one (ECDSA P-256, ten years) is generated into CI_DATA_DIR/grpc-tls/ at the first start and
// kept, so agents that pinned its fingerprint on first use keep trusting the restarted server.
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** SHA-256 of the certificate (DER), colon-separated upper-case hex as Node and openssl print it. */
  fingerprint: string;
  source: 'configured' | 'generated' | 'kept';
  certPath: string;
}

export const TLS_DIR = 'grpc-tls';

export function fingerprintOf(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

/** Reads the configured pair, or the kept self-signed pair, or generates one (its key with mode 0600). */
export async function loadAgentTls(options: {
  dataDir: string;
  certPath?: string;
  keyPath?: string;
}): Promise<TlsMaterial> {
  if (options.certPath || options.keyPath) {
    if (!options.certPath || !options.keyPath)
      throw new Error('gRPC TLS needs both a certificate and a key (CI_GRPC_TLS_CERT and CI_GRPC_TLS_KEY)');
    const cert = readFileSync(options.certPath, 'utf8');
    const key = readFileSync(options.keyPath, 'utf8');
    return { cert, key, fingerprint: fingerprintOf(cert), source: 'configured', certPath: options.certPath };
  }
  const dir = join(options.dataDir, TLS_DIR);
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, 'utf8');
    return {
      cert,
      key: readFileSync(keyPath, 'utf8'),
      fingerprint: fingerprintOf(cert),
      source: 'kept',
      certPath,
    };
  }
  const host = hostname();
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: `ci-control-plane ${host}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: host },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  chmodSync(keyPath, 0o600);
  writeFileSync(certPath, pems.cert, { mode: 0o644 });
  return {
    cert: pems.cert,
    key: pems.private,
    fingerprint: fingerprintOf(pems.cert),
    source: 'generated',
    certPath,
  };
}

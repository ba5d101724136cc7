// How the agent decides to trust the control plane's TLS certificate, in this order: a CA given with
// CI_SERVER_CA (ordinary chain and host-name verification), a fingerprint given with CI_SERVER_FINGERPRINT,
// or the fingerprint pinned on first use (stored in the identity file). With a pin, the certificate must be
// exactly the pinned one; a changed certificate is refused with a message saying what to do. The check runs
// on the TLS socket before HTTP/2 says a word, so no credential is ever sent to an untrusted server.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import type { AgentIdentityStore } from './identity-file.js';

export class ServerCertificateError extends Error {
  override name = 'ServerCertificateError';
}

/** `AB:CD:…` upper-case, whatever separators or case the operator typed. */
export function normalizeFingerprint(text: string): string {
  const hex = text
    .replace(/^sha256[:=]/i, '')
    .replace(/[^0-9a-f]/gi, '')
    .toUpperCase();
  if (hex.length !== 64) throw new Error(`"${text}" is not a SHA-256 fingerprint (64 hex digits)`);
  return hex.match(/../g)!.join(':');
}

export interface TrustOptions {
  /** host:port of the control plane (the pin's key). */
  address: string;
  caPath?: string;
  fingerprint?: string;
  store: AgentIdentityStore;
  /** A certificate was pinned on first use. */
  onPinned?(fingerprint: string): void;
  /** A certificate was refused (the connection fails too; this says why, for the agent to stop). */
  onRefused?(err: ServerCertificateError): void;
}

/** Options for `http2.connect` (through the Connect transport's `nodeOptions`). */
export function trustedConnection(options: TrustOptions) {
  if (options.caPath) {
    const ca = readFileSync(options.caPath, 'utf8');
    return { ca, ALPNProtocols: ['h2'] };
  }
  const explicit = options.fingerprint ? normalizeFingerprint(options.fingerprint) : undefined;
  return {
    createConnection: (authority: URL): TLSSocket => {
      const host = authority.hostname.replace(/^\[|\]$/g, '');
      const socket = tlsConnect({
        host,
        port: Number(authority.port || 443),
        servername: /^[\d.]+$|:/.test(host) ? undefined : host,
        ALPNProtocols: ['h2'],
        // The pin below replaces chain verification: a self-signed certificate has no chain to check.
        rejectUnauthorized: false,
      });
      // Destroyed on the next tick, not inside this listener: http2's own 'secureConnect' listener runs
      // right after this one and hands the socket's handle to its session, and Node aborts the process
      // (a native assertion) when that handle is already gone. The request is only submitted after the
      // session's 'connect', which Node emits on a later tick than this one, so nothing reaches the
      // server. Destroyed without an error: the session would re-emit it where the client library no
      // longer listens (an uncaught 'error'); `onRefused` is how the connection learns why.
      const refuse = (err: ServerCertificateError) => {
        options.onRefused?.(err);
        process.nextTick(() => socket.destroy());
      };
      socket.once('secureConnect', () => {
        const raw = socket.getPeerCertificate(false)?.raw;
        if (!raw) {
          const err = new ServerCertificateError('the control plane presented no TLS certificate');
          refuse(err);
          return;
        }
        const seen = new X509Certificate(raw).fingerprint256;
        const record = options.store.read();
        const pinned = explicit ?? record.servers[options.address];
        if (!pinned) {
          record.servers[options.address] = seen;
          options.store.write(record);
          options.onPinned?.(seen);
          return;
        }
        if (pinned !== seen) {
          const where = explicit
            ? 'CI_SERVER_FINGERPRINT'
            : `the pin for ${options.address} in ${options.store.path ?? "the agent's identity"}`;
          const err = new ServerCertificateError(
            `the control plane's TLS certificate changed: expected SHA-256 ${pinned}, got ${seen}. Refusing ` +
              `to connect. If the server's certificate was replaced on purpose, update ${where}.`,
          );
          refuse(err);
        }
      });
      return socket;
    },
  };
}

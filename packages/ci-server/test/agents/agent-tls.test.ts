// TLS on the agent port with real agent processes: the self-signed certificate generated into CI_DATA_DIR is
// kept across restarts, an agent pins its fingerprint on first use and refuses (and exits on) a changed one;
// a configured certificate is served as given, and agents trust it through an explicit fingerprint or a CA
// file, refusing a wrong fingerprint; cleartext is spoken only when both sides are configured for it; and a
// refused certificate gets no credential (a TLS listener that records every byte it is sent). Every wait is
// for a condition.
import { X509Certificate } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { AgentConnection, IDENTITY_FILE, loadAgentSettings, MemoryIdentityStore } from '@app/ci-agent';
import { freePort, waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { TLS_DIR } from '../../src/agents/tls.js';
import { loadCiSettings } from '../../src/index.js';
import {
  type AgentProcess,
  type E2eServer,
  exitCodeOf,
  startAgent,
  startServer,
  waitForAgents,
} from '../e2e/harness.js';

const LONG = 60_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Types of the HTTP/2 frames a client sent (after the 24-byte connection preface). */
function http2FrameTypes(bytes: Buffer): number[] {
  const types: number[] = [];
  for (let at = 24; at + 9 <= bytes.length; ) {
    types.push(bytes[at + 3]);
    at += 9 + bytes.readUIntBE(at, 3);
  }
  return types;
}

describe('gRPC TLS', () => {
  it(
    'keeps its self-signed certificate across restarts; the agent pins it and refuses a changed one',
    async () => {
      const dataDir = tempDir('tls-ci-');
      const [httpPort, grpcPort] = [await freePort(), await freePort()];
      const start = () => startServer({ dataDir, httpPort, grpcPort, tls: true });
      let ci: E2eServer = await start();
      const workdir = tempDir('tls-agent-');
      const agent = startAgent(grpcPort, 'pinner', { tls: true, workdir });
      cleanups.push(async () => {
        await agent.kill9();
        await ci.server.close();
      });
      const first = ci.server.grpcTls!;
      expect(first.source).toBe('generated');
      expect(statSync(join(dataDir, TLS_DIR, 'key.pem')).mode & 0o777).toBe(0o600);
      await waitForAgents(ci.server, ['pinner']);
      const identity = JSON.parse(readFileSync(join(workdir, IDENTITY_FILE), 'utf8'));
      expect(identity.servers).toEqual({ [`127.0.0.1:${grpcPort}`]: first.fingerprint });
      expect(statSync(join(workdir, IDENTITY_FILE)).mode & 0o777).toBe(0o600);

      await ci.server.close();
      ci = await start();
      expect(ci.server.grpcTls).toMatchObject({ source: 'kept', fingerprint: first.fingerprint });
      await waitForAgents(ci.server, ['pinner']);

      // A new certificate (its files removed): the agent refuses it and stops.
      await ci.server.close();
      rmSync(join(dataDir, TLS_DIR), { recursive: true });
      ci = await start();
      const second = ci.server.grpcTls!;
      expect(second.source).toBe('generated');
      expect(second.fingerprint).not.toBe(first.fingerprint);
      expect(await exitCodeOf(agent)).toBe(3);
      expect(agent.output()).toContain(
        `TLS certificate changed: expected SHA-256 ${first.fingerprint}, got ${second.fingerprint}`,
      );
      expect(ci.server.agents.list().some((a) => a.name === 'pinner')).toBe(false);
    },
    3 * LONG,
  );

  it(
    'serves a configured certificate; agents trust it by fingerprint or CA and refuse a wrong fingerprint',
    async () => {
      const dir = tempDir('tls-configured-');
      const pems = await generate([{ name: 'commonName', value: 'ci.test' }], {
        keyType: 'ec',
        algorithm: 'sha256',
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
      });
      const certPath = join(dir, 'cert.pem');
      const keyPath = join(dir, 'key.pem');
      writeFileSync(certPath, pems.cert);
      writeFileSync(keyPath, pems.private, { mode: 0o600 });
      const fingerprint = new X509Certificate(pems.cert).fingerprint256;
      const ci = await startServer({
        tls: true,
        env: { CI_GRPC_TLS_CERT: certPath, CI_GRPC_TLS_KEY: keyPath },
      });
      const agents: AgentProcess[] = [];
      cleanups.push(async () => {
        for (const a of agents) await a.kill9();
        await ci.server.close();
      });
      expect(ci.server.grpcTls).toMatchObject({ source: 'configured', fingerprint, certPath });

      // Any spelling of the fingerprint: lower case, no colons.
      const byFingerprintDir = tempDir('tls-by-fp-');
      agents.push(
        startAgent(ci.grpcPort, 'by-fingerprint', {
          tls: true,
          workdir: byFingerprintDir,
          extra: { CI_SERVER_FINGERPRINT: fingerprint.replaceAll(':', '').toLowerCase() },
        }),
      );
      agents.push(startAgent(ci.grpcPort, 'by-ca', { tls: true, extra: { CI_SERVER_CA: certPath } }));
      const wrong = startAgent(ci.grpcPort, 'wrong-fingerprint', {
        tls: true,
        extra: { CI_SERVER_FINGERPRINT: 'AB'.repeat(32) },
      });
      agents.push(wrong);
      await waitForAgents(ci.server, ['by-fingerprint', 'by-ca']);
      // An explicit fingerprint is not pinned on first use.
      expect(JSON.parse(readFileSync(join(byFingerprintDir, IDENTITY_FILE), 'utf8')).servers).toEqual({});
      expect(await exitCodeOf(wrong)).toBe(3);
      expect(wrong.output()).toMatch(/TLS certificate changed: expected SHA-256 (AB:){31}AB, got /);
      expect(wrong.output()).toContain('update CI_SERVER_FINGERPRINT');
      expect(ci.server.agents.list().some((a) => a.name === 'wrong-fingerprint')).toBe(false);
    },
    2 * LONG,
  );

  it(
    'speaks cleartext only when both the server and the agent are configured for it',
    async () => {
      // The defaults: the server serves TLS, an address without a scheme is dialled over TLS.
      expect(loadCiSettings({ CI_DATA_DIR: tempDir('tls-defaults-') }).grpcTls).toBe(true);
      expect(
        loadAgentSettings({ CI_SERVER: '127.0.0.1:8154', CI_AGENT_TOKEN: 't', CI_AGENT_NAME: 'a' }).serverUrl,
      ).toBe('https://127.0.0.1:8154');

      const secure = await startServer({ tls: true });
      const clear = await startServer({ tls: false });
      const agents: AgentProcess[] = [];
      cleanups.push(async () => {
        for (const a of agents) await a.kill9();
        await secure.server.close();
        await clear.server.close();
      });
      expect(clear.server.grpcTls).toBeUndefined();
      // A cleartext agent cannot talk to the TLS port, nor a TLS agent (no scheme: the default) to the
      // cleartext one: each keeps saying it cannot reach the control plane.
      const cleartextToTls = startAgent(secure.grpcPort, 'cleartext-to-tls');
      const defaultToCleartext = startAgent(clear.grpcPort, 'default-to-cleartext', {
        extra: { CI_SERVER: `127.0.0.1:${clear.grpcPort}` },
      });
      const both = startAgent(clear.grpcPort, 'cleartext-both');
      agents.push(cleartextToTls, defaultToCleartext, both);
      await waitForAgents(clear.server, ['cleartext-both']);
      for (const agent of [cleartextToTls, defaultToCleartext])
        await waitFor(async () => agent.output().includes('cannot reach the control plane'), {
          what: `${agent.name} to fail to connect`,
          timeoutMs: LONG,
        });
      expect(defaultToCleartext.output()).toContain(`https://127.0.0.1:${clear.grpcPort}`);
      expect(secure.server.agents.list()).toEqual([]);
      expect(clear.server.agents.list().map((a) => a.name)).toEqual(['cleartext-both']);
    },
    2 * LONG,
  );

  it('sends no credential to a server whose certificate it refuses', async () => {
    const pems = await generate([{ name: 'commonName', value: 'impostor' }], {
      keyType: 'ec',
      algorithm: 'sha256',
    });
    let received = Buffer.alloc(0);
    const accepted = { opened: 0, closed: 0 };
    const impostor = createTlsServer(
      { cert: pems.cert, key: pems.private, ALPNProtocols: ['h2'] },
      (socket) => {
        socket.on('data', (chunk: Buffer) => {
          received = Buffer.concat([received, chunk]);
        });
        socket.on('error', () => {});
      },
    );
    // Every TCP connection, handshake finished or not; its close means all it sent has been read.
    impostor.on('connection', (raw) => {
      accepted.opened += 1;
      raw.once('close', () => {
        accepted.closed += 1;
      });
    });
    const port = await new Promise<number>((done) =>
      impostor.listen(0, '127.0.0.1', () => done((impostor.address() as { port: number }).port)),
    );
    cleanups.push(() => new Promise<void>((done) => impostor.close(() => done())));
    const token = 'registration-token-that-must-stay-home';
    const identity = new MemoryIdentityStore();
    // Pinned earlier to another certificate: this one is refused before anything is sent.
    identity.write({ servers: { [`127.0.0.1:${port}`]: 'CD:'.repeat(31) + 'CD' } });
    const connection = new AgentConnection(
      loadAgentSettings({
        CI_SERVER: `127.0.0.1:${port}`,
        CI_AGENT_TOKEN: token,
        CI_AGENT_NAME: 'careful',
        CI_AGENT_WORKDIR: tempDir('tls-careful-'),
      }),
      {},
      { identity },
    );
    await connection.run();
    expect(connection.fatal).toMatch(/TLS certificate changed: expected SHA-256 (CD:){31}CD, got /);
    await waitFor(async () => accepted.opened > 0 && accepted.closed === accepted.opened, {
      what: "the agent's connection to close",
      timeoutMs: LONG,
    });
    expect(accepted.opened).toBe(1);
    // Header values are HPACK-coded (Huffman), so the token is looked for as a frame, not as text: no
    // HEADERS frame (type 1) may have been sent, only the connection preface and SETTINGS at most.
    expect(http2FrameTypes(received)).not.toContain(1);
    expect(received.includes(Buffer.from(token))).toBe(false);
  });
});

// A local Slack-Web-API-compatible server for the chat tests: answers chat.postMessage and chat.update like
// the real API (`{ok, channel, ts}`), serves response_url endpoints, and records every call with its
// Authorization header and JSON body. Plain HTTP on loopback (CHAT_API_URL points the portal at it).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatCall {
  method: string;
  authorization?: string;
  body: Record<string, any>;
}

export interface ChatServer {
  apiUrl: string;
  /** A fresh response_url the server records posts to. */
  responseUrl(): string;
  calls: ChatCall[];
  responses: Array<{ path: string; body: Record<string, any> }>;
  posts(channel?: string): ChatCall[];
  close(): Promise<void>;
}

export async function chatServer(): Promise<ChatServer> {
  const calls: ChatCall[] = [];
  const responses: Array<{ path: string; body: Record<string, any> }> = [];
  let ts = 1_700_000_000;
  let hooks = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, any>) : {};
      const path = req.url ?? '';
      res.setHeader('content-type', 'application/json');
      if (path.startsWith('/respond/')) {
        responses.push({ path, body });
        res.end('{"ok":true}');
        return;
      }
      const method = path.replace(/^\/api\//, '');
      calls.push({ method, authorization: req.headers.authorization, body });
      if (method === 'chat.postMessage' || method === 'chat.update') {
        ts += 1;
        res.end(JSON.stringify({ ok: true, channel: body.channel, ts: body.ts ?? `${ts}.000100` }));
        return;
      }
      res.end(JSON.stringify({ ok: false, error: 'unknown_method' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    apiUrl: `${base}/api`,
    responseUrl: () => `${base}/respond/${++hooks}`,
    calls,
    responses,
    posts: (channel) =>
      calls.filter((c) => c.method === 'chat.postMessage' && (!channel || c.body.channel === channel)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

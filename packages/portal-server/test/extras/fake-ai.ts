// A local fake model provider on 127.0.0.1 (a documented test double: no model can run in tests). It speaks
// the OpenAI-compatible `/chat/completions`, Ollama's `/api/chat` and Gemini's `generateContent` and records
// every request it receives.
import { createServer, type Server } from 'node:http';

export interface FakeRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface FakeAi {
  url: string;
  requests: FakeRequest[];
  /** Status the next answers use (default 200). */
  status: number;
  close(): Promise<void>;
}

export async function startFakeAi(reply = 'This statement reads rows.'): Promise<FakeAi> {
  const state = { requests: [] as FakeRequest[], status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      res.statusCode = state.status;
      if (state.status !== 200)
        return res.end(JSON.stringify({ error: { message: 'key sk-echo rejected' } }));
      const url = req.url ?? '';
      if (url.endsWith('/chat/completions')) {
        return res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply } }] }));
      }
      if (url.endsWith('/api/chat')) {
        return res.end(JSON.stringify({ message: { role: 'assistant', content: reply }, done: true }));
      }
      if (url.includes(':generateContent')) {
        return res.end(JSON.stringify({ candidates: [{ content: { parts: [{ text: reply }] } }] }));
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: state.requests,
    get status() {
      return state.status;
    },
    set status(v: number) {
      state.status = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

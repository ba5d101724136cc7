// A local fake of the other providers' wire formats on 127.0.0.1 (a documented test double: no model can run
// in tests): Ollama's `/api/chat`, Gemini's `generateContent` and Anthropic's `/v1/messages`, one canned
// answer each, every request recorded. The OpenAI-compatible protocol has its own scripted server
// (scripted-model.ts).
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
        return res.end(
          JSON.stringify({
            model: body.model,
            created_at: '2026-01-01T00:00:00Z',
            message: { role: 'assistant', content: reply },
            done: true,
            done_reason: 'stop',
            prompt_eval_count: 10,
            eval_count: 5,
          }),
        );
      }
      if (url.includes(':generateContent')) {
        return res.end(
          JSON.stringify({
            candidates: [{ content: { role: 'model', parts: [{ text: reply }] }, finishReason: 'STOP' }],
            usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
          }),
        );
      }
      if (url.endsWith('/v1/messages')) {
        return res.end(
          JSON.stringify({
            id: 'msg_fake',
            type: 'message',
            role: 'assistant',
            model: body.model,
            content: [{ type: 'text', text: reply }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 5 },
          }),
        );
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

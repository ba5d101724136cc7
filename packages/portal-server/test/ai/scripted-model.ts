// A deterministic scripted model server on 127.0.0.1 (a documented test double: no model runs in tests). It
// speaks the OpenAI Chat Completions wire protocol at POST /v1/chat/completions — plain JSON answers and
// `stream: true` server-sent chunks, text and tool calls — the way Ollama, vLLM and LM Studio do. Each
// request takes the next scripted turn (or the `fallback`), and every request is recorded so tests can read
// exactly what the portal sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** One model turn: text, tool calls, an HTTP failure, or no answer at all (to exercise deadlines). */
export type Turn =
  | { text: string }
  | { toolCalls: ScriptedToolCall[]; text?: string }
  | { status: number }
  | { hang: true };

/** A turn, or a function choosing one from the request (e.g. answer after the tool result arrived). */
export type Step = Turn | ((request: RecordedRequest) => Turn);

export interface RecordedRequest {
  url: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    stream?: boolean;
    max_tokens?: number;
    max_completion_tokens?: number;
    messages?: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }>;
    tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
    [key: string]: unknown;
  };
}

export interface ScriptedModel {
  /** Base URL to give AI_BASE_URL (ends with /v1). */
  url: string;
  requests: RecordedRequest[];
  /** Turns answered in order; when empty, `fallback` answers. */
  script: Step[];
  fallback: Step;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

let ids = 0;

function chunk(delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'scripted',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function answer(res: ServerResponse, turn: Turn, stream: boolean, hanging: Set<ServerResponse>): void {
  if ('hang' in turn) {
    // Never answers; the connection is dropped when the client aborts or the server closes.
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
    return;
  }
  if ('status' in turn) {
    res.writeHead(turn.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'scripted failure; key sk-echo-should-not-leak' } }));
    return;
  }
  const calls =
    'toolCalls' in turn
      ? turn.toolCalls.map((c) => ({
          id: `call_${++ids}`,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        }))
      : [];
  const text = turn.text ?? '';
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-scripted',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'scripted',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: text || null,
              ...(calls.length ? { tool_calls: calls } : {}),
            },
            finish_reason: finish,
          },
        ],
        usage: USAGE,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
  send(chunk({ role: 'assistant', content: '' }, null));
  // Text in a few pieces, so the client really assembles deltas.
  for (const piece of text.match(/.{1,12}/gs) ?? []) send(chunk({ content: piece }, null));
  calls.forEach((c, index) => {
    send(
      chunk(
        {
          tool_calls: [
            { index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } },
          ],
        },
        null,
      ),
    );
    send(chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] }, null));
  });
  send(chunk({}, finish, { usage: USAGE }));
  res.write('data: [DONE]\n\n');
  res.end();
}

export async function startScriptedModel(
  fallback: Step = { text: 'Scripted answer.' },
): Promise<ScriptedModel> {
  const hanging = new Set<ServerResponse>();
  const state: ScriptedModel = {
    url: '',
    requests: [],
    script: [],
    fallback,
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    readBody(req)
      .then((raw) => {
        if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'not found' } }));
          return;
        }
        const recorded: RecordedRequest = {
          url: req.url,
          headers: req.headers,
          body: JSON.parse(raw || '{}'),
        };
        state.requests.push(recorded);
        const step = state.script.shift() ?? state.fallback;
        const turn = typeof step === 'function' ? step(recorded) : step;
        answer(res, turn, recorded.body.stream === true, hanging);
      })
      .catch(() => {
        res.writeHead(400);
        res.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/v1`;
  state.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/** The last message of a request whose role is `tool` (the portal's answer to a tool call), parsed. */
export function lastToolResult(request: RecordedRequest): unknown {
  const msgs = request.body.messages ?? [];
  const last = [...msgs].reverse().find((m) => m.role === 'tool');
  if (!last) return undefined;
  const content = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

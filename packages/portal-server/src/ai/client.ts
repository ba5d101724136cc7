// The model client of the AI routes: one non-streaming chat request to the configured provider (an
// OpenAI-compatible `/chat/completions`, Ollama's `/api/chat` or Gemini's `generateContent`), with a deadline,
// a bounded response read and errors that never carry the API key or the provider's raw answer.
import { HttpError } from '@app/kit';

export type AiProviderName = 'openai' | 'ollama' | 'gemini';

export interface AiSettings {
  aiProvider?: string;
  aiBaseUrl?: string;
  aiModel?: string;
  aiApiKey?: string;
}

export interface AiClient {
  readonly provider: AiProviderName;
  readonly model: string;
  /** One request: the system prompt and the user's text; answers the model's text. */
  complete(system: string, user: string): Promise<string>;
}

export const AI_NOT_CONFIGURED =
  'AI is not configured: set AI_PROVIDER, AI_BASE_URL, AI_MODEL (and AI_API_KEY)';

/** Base URLs used when AI_BASE_URL is unset. */
export const DEFAULT_BASE_URLS: Record<AiProviderName, string> = {
  openai: 'https://api.openai.com/v1',
  ollama: 'http://127.0.0.1:11434',
  gemini: 'https://generativelanguage.googleapis.com',
};

/** How long one model call may take. */
export const AI_TIMEOUT_MS = 60_000;
/** Largest provider answer read (bytes); anything beyond is refused rather than buffered. */
export const AI_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Longest text handed back to the browser. */
export const AI_MAX_TEXT_CHARS = 20_000;
/** Output token budget asked of the model. */
export const AI_MAX_OUTPUT_TOKENS = 1024;

export interface AiClientOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * The client for the settings, or the reason AI is off. AI_PROVIDER unset means off; a provider without
 * AI_MODEL is treated as not configured too (there is no sensible default model to guess).
 */
export function createAiClient(
  settings: AiSettings,
  options: AiClientOptions = {},
): { client: AiClient } | { reason: string } {
  const provider = settings.aiProvider as AiProviderName | undefined;
  if (!provider || !(provider in DEFAULT_BASE_URLS) || !settings.aiModel)
    return { reason: AI_NOT_CONFIGURED };
  const model = settings.aiModel;
  const base = (settings.aiBaseUrl ?? DEFAULT_BASE_URLS[provider]).replace(/\/+$/, '');
  const key = settings.aiApiKey;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? AI_TIMEOUT_MS;

  const request = (system: string, user: string): { url: string; init: RequestInit } => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (provider === 'openai') {
      if (key) headers.authorization = `Bearer ${key}`;
      const body = {
        model,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        max_tokens: AI_MAX_OUTPUT_TOKENS,
        temperature: 0,
        stream: false,
      };
      return {
        url: `${base}/chat/completions`,
        init: { method: 'POST', headers, body: JSON.stringify(body) },
      };
    }
    if (provider === 'ollama') {
      if (key) headers.authorization = `Bearer ${key}`;
      const body = {
        model,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        stream: false,
        options: { temperature: 0, num_predict: AI_MAX_OUTPUT_TOKENS },
      };
      return { url: `${base}/api/chat`, init: { method: 'POST', headers, body: JSON.stringify(body) } };
    }
    // Gemini: the key travels in a header, never in the URL (URLs end up in logs).
    if (key) headers['x-goog-api-key'] = key;
    const body = {
      systemInstruction: { parts: [{ text: system }] },
      contents: [{ role: 'user', parts: [{ text: user }] }],
      generationConfig: { temperature: 0, maxOutputTokens: AI_MAX_OUTPUT_TOKENS },
    };
    const url = `${base}/v1beta/models/${encodeURIComponent(model)}:generateContent`;
    return { url, init: { method: 'POST', headers, body: JSON.stringify(body) } };
  };

  return {
    client: {
      provider,
      model,
      async complete(system, user) {
        const { url, init } = request(system, user);
        let res: Response;
        try {
          res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
        } catch (err) {
          const name = (err as { name?: string }).name;
          if (name === 'TimeoutError' || name === 'AbortError') {
            throw new HttpError(
              504,
              `The model provider did not answer within ${timeoutMs} ms`,
              'AI_TIMEOUT',
            );
          }
          throw new HttpError(502, 'The model provider could not be reached', 'AI_PROVIDER_ERROR');
        }
        const raw = await readBounded(res);
        if (!res.ok) {
          // The provider's body may echo the request; only the status is passed on.
          throw new HttpError(502, `The model provider answered HTTP ${res.status}`, 'AI_PROVIDER_ERROR', {
            providerStatus: res.status,
          });
        }
        let json: unknown;
        try {
          json = JSON.parse(raw);
        } catch {
          throw new HttpError(502, 'The model provider answered with invalid JSON', 'AI_PROVIDER_ERROR');
        }
        const text = extractText(provider, json);
        if (text === undefined) {
          throw new HttpError(502, 'The model provider answered without text', 'AI_PROVIDER_ERROR');
        }
        return text.length > AI_MAX_TEXT_CHARS ? `${text.slice(0, AI_MAX_TEXT_CHARS)}…` : text;
      },
    },
  };
}

/** Reads the body up to AI_MAX_RESPONSE_BYTES; a larger answer is a provider error, not a buffer. */
async function readBounded(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > AI_MAX_RESPONSE_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw new HttpError(502, 'The model provider answer is too large', 'AI_PROVIDER_ERROR');
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const name = (err as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new HttpError(504, 'The model provider did not finish its answer in time', 'AI_TIMEOUT');
    }
    throw new HttpError(502, 'The model provider answer could not be read', 'AI_PROVIDER_ERROR');
  }
  return Buffer.concat(chunks).toString('utf8');
}

function extractText(provider: AiProviderName, json: unknown): string | undefined {
  const j = json as Record<string, unknown> | null;
  if (!j || typeof j !== 'object') return undefined;
  if (provider === 'openai') {
    const choices = j.choices as Array<{ message?: { content?: unknown } }> | undefined;
    const content = Array.isArray(choices) ? choices[0]?.message?.content : undefined;
    return typeof content === 'string' ? content : undefined;
  }
  if (provider === 'ollama') {
    const content = (j.message as { content?: unknown } | undefined)?.content;
    return typeof content === 'string' ? content : undefined;
  }
  const candidates = j.candidates as Array<{ content?: { parts?: Array<{ text?: unknown }> } }> | undefined;
  const parts = Array.isArray(candidates) ? candidates[0]?.content?.parts : undefined;
  if (!Array.isArray(parts)) return undefined;
  const texts = parts.map((p) => p?.text).filter((t): t is string => typeof t === 'string');
  return texts.length > 0 ? texts.join('') : undefined;
}

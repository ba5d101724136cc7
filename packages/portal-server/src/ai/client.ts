// The one-shot model call of the AI routes and the agent's classifier, on the Vercel AI SDK (src/ai/model.ts):
// a system prompt and the user's text in, the model's text out, with a deadline, an output budget, no
// retries (one call means one call) and errors that never carry the API key or the provider's raw answer.
import { HttpError } from '@app/kit';
import { APICallError, generateText, type LanguageModel } from 'ai';
import { createModel } from './model.js';
import type { AiProviderName, AiSettings } from './settings.js';

/** How long one model call may take unless the caller says otherwise. */
export const AI_TIMEOUT_MS = 60_000;
/** Longest text handed back to the browser. */
export const AI_MAX_TEXT_CHARS = 20_000;
/** Output token budget asked of the model. */
export const AI_MAX_OUTPUT_TOKENS = 1024;

export interface CompleteOptions {
  maxOutputTokens?: number;
  timeoutMs?: number;
}

export interface AiClient {
  readonly provider: AiProviderName;
  readonly model: string;
  /** The SDK model itself, for callers that stream or call tools (the agent). */
  readonly languageModel: LanguageModel;
  /** One request: the system prompt and the user's text; answers the model's text. */
  complete(system: string, user: string, options?: CompleteOptions): Promise<string>;
}

function isAbort(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/**
 * A model failure as the portal's own error: 504 AI_TIMEOUT for a deadline, 502 AI_PROVIDER_ERROR for the
 * rest. Only the provider's HTTP status is passed on: its body may echo the request or the key.
 */
export function modelError(err: unknown, timeoutMs: number): HttpError {
  if (err instanceof HttpError) return err;
  if (isAbort(err) || isAbort((err as { cause?: unknown } | null)?.cause)) {
    return new HttpError(504, `The model provider did not answer within ${timeoutMs} ms`, 'AI_TIMEOUT');
  }
  if (APICallError.isInstance(err)) {
    if (err.statusCode === undefined)
      return new HttpError(502, 'The model provider could not be reached', 'AI_PROVIDER_ERROR');
    return new HttpError(502, `The model provider answered HTTP ${err.statusCode}`, 'AI_PROVIDER_ERROR', {
      providerStatus: err.statusCode,
    });
  }
  return new HttpError(502, 'The model provider gave no usable answer', 'AI_PROVIDER_ERROR');
}

/** The client for the settings, or the reason AI is off (see createModel). */
export function createAiClient(
  settings: AiSettings,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): { client: AiClient } | { reason: string } {
  const configured = createModel(settings, options);
  if ('reason' in configured) return configured;
  const { model, provider, modelId } = configured;
  return {
    client: {
      provider,
      model: modelId,
      languageModel: model,
      async complete(system, user, o = {}) {
        const timeoutMs = o.timeoutMs ?? options.timeoutMs ?? AI_TIMEOUT_MS;
        let text: string;
        try {
          const result = await generateText({
            model,
            system,
            prompt: user,
            temperature: 0,
            maxOutputTokens: o.maxOutputTokens ?? AI_MAX_OUTPUT_TOKENS,
            maxRetries: 0,
            abortSignal: AbortSignal.timeout(timeoutMs),
          });
          text = result.text;
        } catch (err) {
          throw modelError(err, timeoutMs);
        }
        if (text.trim() === '') {
          throw new HttpError(502, 'The model provider answered without text', 'AI_PROVIDER_ERROR');
        }
        return text.length > AI_MAX_TEXT_CHARS ? `${text.slice(0, AI_MAX_TEXT_CHARS)}…` : text;
      },
    },
  };
}

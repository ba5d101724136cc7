// The model provider behind every AI feature, built on the Vercel AI SDK: AI_PROVIDER picks the SDK provider
// (`openai` with AI_BASE_URL = any OpenAI-compatible server speaking `/v1/chat/completions`, without it the
// hosted OpenAI API; `ollama`; `gemini`; `anthropic`), AI_MODEL the model. The AI routes and the agent only
// ever see a `LanguageModel`; nothing here knows what the model is asked.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { type AiProviderName, type AiSettings, aiOffReason, DEFAULT_BASE_URLS } from './settings.js';

export interface ConfiguredModel {
  provider: AiProviderName;
  modelId: string;
  model: LanguageModel;
}

/** Adds `suffix` unless the operator's base URL already ends with it (both spellings are accepted). */
function withSuffix(base: string, suffix: string): string {
  return base.endsWith(suffix) ? base : `${base}${suffix}`;
}

/**
 * Redirects are refused: a provider URL that bounces elsewhere would carry the API key with it. The SDK's
 * own fetch is otherwise used as is (it streams, and the callers bound what they keep).
 */
function guardedFetch(inner: typeof fetch): typeof fetch {
  return (input, init) => inner(input, { ...init, redirect: 'error' });
}

/**
 * The SDK model for the settings, or why AI is off. AI_PROVIDER unset, unknown, or set without AI_MODEL
 * means off: there is no model name worth guessing.
 */
export function createModel(
  settings: AiSettings,
  options: { fetch?: typeof fetch } = {},
): ConfiguredModel | { reason: string } {
  const reason = aiOffReason(settings);
  if (reason !== undefined) return { reason };
  // aiOffReason checked both: a known provider and a model name.
  const provider = settings.aiProvider as AiProviderName;
  const modelId = settings.aiModel as string;
  const base = (settings.aiBaseUrl ?? DEFAULT_BASE_URLS[provider]).replace(/\/+$/, '');
  const apiKey = settings.aiApiKey;
  const fetchFn = guardedFetch(options.fetch ?? fetch);
  let model: LanguageModel;
  switch (provider) {
    case 'openai':
      // A base URL names an OpenAI-compatible server (Ollama, vLLM, LM Studio…): Chat Completions only.
      model = settings.aiBaseUrl
        ? createOpenAICompatible({
            name: 'openai-compatible',
            baseURL: base,
            ...(apiKey ? { apiKey } : {}),
            fetch: fetchFn,
          }).chatModel(modelId)
        : createOpenAI({ apiKey: apiKey ?? '', fetch: fetchFn }).chat(modelId);
      break;
    case 'ollama':
      model = createOllama({
        baseURL: withSuffix(base, '/api'),
        ...(apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {}),
        fetch: fetchFn,
      })(modelId);
      break;
    case 'gemini':
      // The key travels in the x-goog-api-key header, never in the URL (URLs end up in logs).
      model = createGoogleGenerativeAI({
        baseURL: withSuffix(base, '/v1beta'),
        apiKey: apiKey ?? '',
        fetch: fetchFn,
      })(modelId);
      break;
    case 'anthropic':
      model = createAnthropic({ baseURL: withSuffix(base, '/v1'), apiKey: apiKey ?? '', fetch: fetchFn })(
        modelId,
      );
      break;
  }
  return { provider, modelId, model };
}

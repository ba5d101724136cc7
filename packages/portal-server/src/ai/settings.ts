// What the AI settings say without loading any SDK: the provider names, their default API addresses, and
// whether AI is on at all. The portal's start asks this first and loads the Vercel AI SDK and its providers
// (ai/model.ts, ai/client.ts, ~25 MB and a few hundred ms) only when a model is configured.

export type AiProviderName = 'openai' | 'ollama' | 'gemini' | 'anthropic';

export interface AiSettings {
  aiProvider?: string;
  aiBaseUrl?: string;
  aiModel?: string;
  aiApiKey?: string;
}

export const AI_NOT_CONFIGURED =
  'AI is not configured: set AI_PROVIDER, AI_BASE_URL, AI_MODEL (and AI_API_KEY)';

/** Where each provider's API lives when AI_BASE_URL is unset (the SDK path suffix is added by model.ts). */
export const DEFAULT_BASE_URLS: Record<AiProviderName, string> = {
  openai: 'https://api.openai.com/v1',
  ollama: 'http://127.0.0.1:11434',
  gemini: 'https://generativelanguage.googleapis.com',
  anthropic: 'https://api.anthropic.com',
};

/**
 * Why AI is off, or undefined when a model is configured. AI_PROVIDER unset, unknown, or set without
 * AI_MODEL means off: there is no model name worth guessing.
 */
export function aiOffReason(settings: AiSettings): string | undefined {
  const provider = settings.aiProvider;
  if (!provider || !(provider in DEFAULT_BASE_URLS) || !settings.aiModel) return AI_NOT_CONFIGURED;
  return undefined;
}

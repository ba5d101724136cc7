// The model layer (src/ai/model.ts, client.ts) against the scripted model server: one-shot calls with the
// output budget and key on the wire, streamed tool calls through the SDK, and errors that keep the key out.
import { stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAiClient } from '../../src/ai/client.js';
import { createModel } from '../../src/ai/model.js';
import { lastToolResult, type ScriptedModel, startScriptedModel } from './scripted-model.js';

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(async () => {
  await model?.close();
});

const settings = () => ({
  aiProvider: 'openai',
  aiBaseUrl: model.url,
  aiModel: 'scripted-1',
  aiApiKey: 'sk-test-key',
});

describe('createModel', () => {
  it('is off without a provider or a model, on with both', () => {
    expect(createModel({})).toEqual({ reason: expect.stringContaining('AI is not configured') });
    expect(createModel({ aiProvider: 'openai' })).toHaveProperty('reason');
    expect(createModel({ aiProvider: 'nonsense', aiModel: 'x' })).toHaveProperty('reason');
    for (const aiProvider of ['openai', 'ollama', 'gemini', 'anthropic']) {
      expect(createModel({ aiProvider, aiModel: 'm' })).toMatchObject({ provider: aiProvider, modelId: 'm' });
    }
  });
});

describe('one-shot calls', () => {
  it('sends the system prompt, the text, the key and the output budget over Chat Completions', async () => {
    const made = createAiClient(settings());
    if (!('client' in made)) throw new Error('expected a client');
    model.script.push({ text: 'It reads one row.' });
    const before = model.requests.length;
    const text = await made.client.complete('You explain SQL.', 'SELECT 1', { maxOutputTokens: 16 });
    expect(text).toBe('It reads one row.');
    expect(model.requests.length).toBe(before + 1);
    const sent = model.requests.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-key');
    expect(sent.body.model).toBe('scripted-1');
    expect(sent.body.max_tokens).toBe(16);
    expect(sent.body.messages?.[0]).toEqual({ role: 'system', content: 'You explain SQL.' });
    expect(sent.body.messages?.[1]).toMatchObject({ role: 'user', content: 'SELECT 1' });
  });

  it('turns a provider failure into 502 without the provider body, and a silent provider into 504', async () => {
    const made = createAiClient(settings());
    if (!('client' in made)) throw new Error('expected a client');
    model.script.push({ status: 401 });
    const failure = await made.client.complete('s', 'u').catch((e) => e);
    expect(failure).toMatchObject({ statusCode: 502, code: 'AI_PROVIDER_ERROR' });
    expect(JSON.stringify(failure)).not.toContain('sk-echo');
    expect(failure.message).not.toContain('sk-test-key');
    model.script.push({ hang: true });
    const slow = await made.client.complete('s', 'u', { timeoutMs: 200 }).catch((e) => e);
    expect(slow).toMatchObject({ statusCode: 504, code: 'AI_TIMEOUT' });
  });
});

describe('streamed tool calls through the SDK', () => {
  it('runs a tool the model calls and feeds its result back', async () => {
    const made = createModel(settings());
    if ('reason' in made) throw new Error('expected a model');
    model.script.push({ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] });
    model.script.push((req) => ({ text: `The sum is ${(lastToolResult(req) as { sum: number }).sum}.` }));
    const result = streamText({
      model: made.model,
      prompt: 'add 2 and 3',
      maxRetries: 0,
      stopWhen: stepCountIs(3),
      tools: {
        add: tool({
          description: 'adds',
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          execute: async ({ a, b }) => ({ sum: a + b }),
        }),
      },
    });
    const kinds: string[] = [];
    for await (const part of result.fullStream) kinds.push(part.type);
    expect(await result.text).toBe('The sum is 5.');
    expect(kinds).toContain('tool-call');
    expect(kinds).toContain('tool-result');
    expect(model.requests.at(-1)!.body.stream).toBe(true);
  });
});

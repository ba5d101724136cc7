// A small Slack-Web-API-compatible client (chat.postMessage, chat.update, and replies through an
// interaction's response_url). `CHAT_API_URL` points it at another compatible server (tests run a local
// one); the bot token travels only in the Authorization header and never in a log line.
export const DEFAULT_CHAT_API_URL = 'https://slack.com/api';
const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 256 * 1024;

export class ChatApiError extends Error {
  override name = 'ChatApiError';
  constructor(
    message: string,
    /** Network failures, 5xx and rate limits are worth another attempt; `ok:false` answers are not. */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface ChatMessage {
  channel: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
}

export interface PostedMessage {
  channel: string;
  ts: string;
}

export interface ChatClientOptions {
  token: string;
  apiUrl?: string;
  fetch?: typeof fetch;
}

async function readBounded(res: Response): Promise<string> {
  const text = await res.text();
  return text.length > MAX_ANSWER_BYTES ? text.slice(0, MAX_ANSWER_BYTES) : text;
}

export class ChatClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: ChatClientOptions) {
    this.base = (options.apiUrl ?? DEFAULT_CHAT_API_URL).replace(/\/+$/, '');
    this.doFetch = options.fetch ?? fetch;
  }

  /** Calls a Web API method with a JSON body; answers the parsed `{ok:true, …}` answer. */
  async call(method: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await this.doFetch(`${this.base}/${method}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.token}`,
          'content-type': 'application/json; charset=utf-8',
        },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ChatApiError(`${method}: ${(err as Error).message}`, true);
    }
    const text = await readBounded(res).catch(() => '');
    if (res.status === 429 || res.status >= 500) {
      throw new ChatApiError(`${method}: chat API answered ${res.status}`, true);
    }
    let answer: Record<string, unknown>;
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ChatApiError(`${method}: chat API answered ${res.status} without JSON`, false);
    }
    if (answer.ok !== true) {
      const error = typeof answer.error === 'string' ? answer.error : `status ${res.status}`;
      throw new ChatApiError(`${method}: ${error}`, error === 'ratelimited');
    }
    return answer;
  }

  async postMessage(message: ChatMessage): Promise<PostedMessage> {
    const answer = await this.call('chat.postMessage', { ...message, unfurl_links: false });
    const ts = typeof answer.ts === 'string' ? answer.ts : undefined;
    const channel = typeof answer.channel === 'string' ? answer.channel : message.channel;
    if (!ts) throw new ChatApiError('chat.postMessage: answer without ts', false);
    return { channel, ts };
  }

  async update(message: { channel: string; ts: string; text: string; blocks?: unknown[] }): Promise<void> {
    await this.call('chat.update', message);
  }

  /**
   * Answers through an interaction's `response_url` (no bot token: the URL itself is the credential the
   * chat platform handed out in a signed payload).
   */
  async respond(responseUrl: string, body: Record<string, unknown>): Promise<void> {
    let res: Response;
    try {
      res = await this.doFetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ChatApiError(`response_url: ${(err as Error).message}`, true);
    }
    await readBounded(res).catch(() => '');
    if (!res.ok) throw new ChatApiError(`response_url answered ${res.status}`, res.status >= 500);
  }
}

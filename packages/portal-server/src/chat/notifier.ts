// Posts the bot flow to chat (database-portal.md Events 2) from the job queue, so a slow or failing chat
// API never holds up a request and failed posts are retried by the worker: `announce` (review channel and
// the requester's reply thread, with buttons when interactions can be verified), `decided` (the
// announcements lose their buttons and say who decided) and `outcome` (the result, ten rows at most, posted
// into the thread). Message references are kept on the request so later posts thread under them.
import type { BotRequestRepository } from '../bot/store.js';
import type { BotRequest, ChatRefs } from '../bot/types.js';
import type { Job } from '../storage/jobs.js';
import { ChatApiError, type ChatClient } from './client.js';
import { type AnnounceContext, announcement, decided, outcome } from './messages.js';

export const CHAT_JOB = 'bot.chat';

export type ChatJobKind = 'announce' | 'decided' | 'outcome';

export interface ChatJobPayload {
  requestId: string;
  kind: ChatJobKind;
  /** `decided`: what to say (e.g. "Approved by chat:U123"). */
  state?: string;
}

export interface ChatNotifierOptions {
  client: ChatClient;
  requests: BotRequestRepository;
  /** CHAT_REVIEW_CHANNEL; undefined: only reply threads are used. */
  reviewChannel?: string;
  /** CHAT_SIGNING_SECRET is set, so buttons can be offered. */
  interactive: boolean;
  /** Display name and reviewer count of a datasource (it may have left the configuration since). */
  datasource(id: string): { name: string; approvalsRequired: number };
  log?: { warn(obj: object, msg: string): void };
}

export class ChatNotifier {
  constructor(private readonly o: ChatNotifierOptions) {}

  /** The job handler: throws a retryable failure so the worker tries again later; drops the rest. */
  async handle(job: Job): Promise<unknown> {
    const p = job.payload as ChatJobPayload;
    const request = await this.o.requests.get(p.requestId);
    if (!request) return { skipped: 'unknown request' };
    try {
      if (p.kind === 'announce') await this.announce(request);
      else if (p.kind === 'decided') await this.decide(request, p.state ?? request.status);
      else await this.outcome(request);
      return { posted: p.kind };
    } catch (err) {
      if (err instanceof ChatApiError && !err.retryable) {
        this.o.log?.warn({ requestId: request.id, kind: p.kind, error: err.message }, 'chat post refused');
        return { refused: err.message };
      }
      throw err;
    }
  }

  private context(r: BotRequest, interactive: boolean): AnnounceContext {
    const ds = this.o.datasource(r.datasourceId);
    return { request: r, datasourceName: ds.name, approvalsRequired: ds.approvalsRequired, interactive };
  }

  private async announce(r: BotRequest): Promise<void> {
    const refs: ChatRefs = { ...r.chat };
    const message = announcement(this.context(r, this.o.interactive));
    // Each post is remembered as soon as it succeeds, so a retry after a partial failure does not repeat it.
    if (this.o.reviewChannel && !refs.review) {
      refs.review = await this.o.client.postMessage({ channel: this.o.reviewChannel, ...message });
      await this.saveRefs(r.id, { review: refs.review });
    }
    if (r.reply && !refs.reply) {
      refs.reply = await this.o.client.postMessage({
        channel: r.reply.channel,
        ...(r.reply.threadTs ? { thread_ts: r.reply.threadTs } : {}),
        ...message,
      });
      await this.saveRefs(r.id, { reply: refs.reply });
    }
  }

  private async decide(r: BotRequest, state: string): Promise<void> {
    const message = decided(this.context(r, false), state);
    for (const ref of [r.chat?.review, r.chat?.reply]) {
      if (ref) await this.o.client.update({ channel: ref.channel, ts: ref.ts, ...message });
    }
  }

  private async outcome(r: BotRequest): Promise<void> {
    const ds = this.o.datasource(r.datasourceId);
    const message = outcome(r, ds.name);
    // The requester's thread: the one the bot named, else the thread under our post in its channel.
    const target = r.reply?.threadTs
      ? { channel: r.reply.channel, thread_ts: r.reply.threadTs }
      : r.chat?.reply
        ? { channel: r.chat.reply.channel, thread_ts: r.chat.reply.ts }
        : r.reply
          ? { channel: r.reply.channel }
          : r.chat?.review
            ? { channel: r.chat.review.channel, thread_ts: r.chat.review.ts }
            : undefined;
    if (target) await this.o.client.postMessage({ ...target, ...message });
    // The review channel sees how it ended too (without buttons), when the request was announced there.
    if (r.chat?.review && target?.channel !== r.chat.review.channel) {
      await this.o.client.postMessage({
        channel: r.chat.review.channel,
        thread_ts: r.chat.review.ts,
        ...message,
      });
    }
  }

  private async saveRefs(id: string, add: ChatRefs): Promise<void> {
    await this.o.requests.mutate(id, (current) => ({ chat: { ...current.chat, ...add } }));
  }
}

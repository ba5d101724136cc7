// Wires the bot API, its worker jobs, callbacks and chat approvals into a portal server (its routes are in
// http/bot-surface.ts): the job handlers (`bot.execute`, `bot.callback`, `bot.chat`), the approval listener
// that moves a decided request on, and a reconciler that catches up on decisions made elsewhere and on
// expiries. Settings: docs/portal-bot.md.
import { ChatClient } from '../chat/client.js';
import { InteractionHandler } from '../chat/interactions.js';
import { CHAT_JOB, ChatNotifier } from '../chat/notifier.js';
import { ChatSignatureVerifier } from '../chat/signature.js';
import type { ManagedEntry } from '../datasources/types.js';
import type { PipelineDeps } from '../execution/pipeline.js';
import type { ApprovalService } from '../governance/approvals.js';
import type { ProviderCache } from '../providers/cache.js';
import type { JobWorker } from '../storage/job-worker.js';
import type { PortalStore } from '../storage/store.js';
import type { BotAudit, BotContext, BotLog } from './context.js';
import { CALLBACK_JOB, EXECUTE_JOB, handleCallbackJob } from './outbox.js';
import { applyApproval, handleExecuteJob, reconcile } from './runner.js';
import { BotRequestRepository } from './store.js';
import { parseAllowedHosts } from './validate.js';

export interface BotSettings {
  callbackSigningSecret?: string;
  callbackAllowedHosts?: string;
  chatBotToken?: string;
  chatSigningSecret?: string;
  chatReviewChannel?: string;
  chatApiUrl?: string;
}

export interface BotApiOptions {
  settings: BotSettings;
  store: PortalStore | undefined;
  datasources: { resolve(id: string): ManagedEntry | undefined };
  approvals: ApprovalService;
  providers: ProviderCache;
  /** The governed execution pipeline's dependencies (the same governance hooks as the session routes). */
  execution: PipelineDeps;
  audit: BotAudit;
  log: BotLog;
  /** Extra CA certificates (PEM) trusted for callback receivers — for tests with a self-signed receiver. */
  callbackCa?: string[];
  /** First callback retry delay in ms (default 1000; the second waits four times as long). */
  callbackBackoffMs?: number;
  /** How often the reconciler runs (default 30 s). */
  reconcileMs?: number;
  now?: () => Date;
}

export interface BotApi {
  /** Undefined without server storage. */
  context: BotContext | undefined;
  interactions: InteractionHandler;
  /** Registers the job handlers on this process's worker (studio and worker roles). */
  registerJobs(worker: JobWorker): void;
  /** Starts the reconciler (roles that run jobs). */
  start(): void;
  stop(): void;
}

export function createBotApi(o: BotApiOptions): BotApi {
  const s = o.settings;
  const now = o.now ?? (() => new Date());
  let worker: JobWorker | undefined;
  const requests = o.store ? new BotRequestRepository(o.store.db, now) : undefined;
  const client = s.chatBotToken ? new ChatClient({ token: s.chatBotToken, apiUrl: s.chatApiUrl }) : undefined;
  // response_url answers need no bot token, so a portal that only verifies presses can still answer them.
  const responder = client ?? new ChatClient({ token: '', apiUrl: s.chatApiUrl });
  const context: BotContext | undefined =
    o.store && requests
      ? {
          requests,
          tokens: o.store.serviceTokens,
          jobs: o.store.jobs,
          approvals: o.approvals,
          datasources: o.datasources,
          providers: o.providers,
          execution: o.execution,
          audit: o.audit,
          log: o.log,
          callbacks: {
            ...(s.callbackSigningSecret ? { secret: s.callbackSigningSecret } : {}),
            hosts: parseAllowedHosts(s.callbackAllowedHosts),
            ...(o.callbackCa ? { ca: o.callbackCa } : {}),
            backoffMs: o.callbackBackoffMs ?? 1000,
          },
          chatEnabled: client !== undefined,
          wake: () => worker?.wake(),
          now,
        }
      : undefined;

  const interactions = new InteractionHandler({
    verifier: new ChatSignatureVerifier(s.chatSigningSecret),
    requests,
    approvals: o.approvals,
    client: responder,
    audit: o.audit,
    log: o.log,
  });

  // A final decision (session route or chat) moves the bot request on in this process at once; decisions
  // made in another process are picked up by the reconciler.
  if (context) {
    o.approvals.onDecided(async (e) => {
      if (e.final && e.approval.route === 'bot') await applyApproval(context, e.approval.id);
    });
  }

  let timer: NodeJS.Timeout | undefined;
  return {
    context,
    interactions,
    registerJobs(w) {
      if (!context) return;
      worker = w;
      w.register(EXECUTE_JOB, (job) => handleExecuteJob(context, job));
      w.register(CALLBACK_JOB, (job) => handleCallbackJob(context, job));
      if (client && requests) {
        const notifier = new ChatNotifier({
          client,
          requests,
          reviewChannel: s.chatReviewChannel,
          interactive: Boolean(s.chatSigningSecret),
          datasource: (id) => {
            const entry = o.datasources.resolve(id);
            const approvalsRequired =
              entry?.available && entry.datasource.policy.approvalsRequired === 2 ? 2 : 1;
            return { name: entry?.datasource.name ?? id, approvalsRequired };
          },
          log: o.log,
        });
        w.register(CHAT_JOB, (job) => notifier.handle(job));
      }
    },
    start() {
      if (!context || timer) return;
      timer = setInterval(() => {
        reconcile(context).catch((err) => o.log.error({ err }, 'bot request reconciliation failed'));
      }, o.reconcileMs ?? 30_000);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

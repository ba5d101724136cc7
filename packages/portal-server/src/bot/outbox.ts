// The bot API's outbox on the job queue: runs of approved requests (`bot.execute`, one job per request with
// a fixed id so a retry or the reconciler can never queue a second run), signed callbacks (`bot.callback`,
// one job per attempt so each attempt's number and backoff are exact) and chat posts (`bot.chat`). Whatever
// leaves the process does so from a worker, so a slow receiver never holds up a request.
import { randomUUID } from 'node:crypto';
import type { ChatJobKind, ChatJobPayload } from '../chat/notifier.js';
import { CHAT_JOB } from '../chat/notifier.js';
import type { Job } from '../storage/jobs.js';
import { CALLBACK_ATTEMPTS, type CallbackEvent, callbackBackoffMs, deliverCallback } from './callbacks.js';
import type { BotContext } from './context.js';
import { type BotRequest, toPublicRecord } from './types.js';

export const EXECUTE_JOB = 'bot.execute';
export const CALLBACK_JOB = 'bot.callback';

/** Attempts of a run job: a run waits for a concurrency slot through retries, never re-runs a statement. */
export const EXECUTE_ATTEMPTS = 5;
/**
 * Job attempts per delivery attempt: a worker that dies mid-delivery leaves the job to be taken again (the
 * same `X-Portal-Delivery`, so a receiver can drop the duplicate); the three delivery attempts are separate.
 */
const CALLBACK_JOB_ATTEMPTS = 2;

export interface CallbackJobPayload {
  requestId: string;
  event: CallbackEvent;
  deliveryId: string;
  attempt: number;
}

export const runJobId = (requestId: string) => `bot-run-${requestId}`;

/** Queues the run of an approved request (idempotent) and records the job id on it. */
export async function queueRun(ctx: BotContext, request: BotRequest): Promise<BotRequest> {
  const jobId = runJobId(request.id);
  if (!(await ctx.jobs.get(jobId))) {
    try {
      await ctx.jobs.enqueue(
        EXECUTE_JOB,
        { requestId: request.id },
        { id: jobId, maxAttempts: EXECUTE_ATTEMPTS },
      );
    } catch (err) {
      // Someone queued it between our read and insert (the primary key refuses the second): fine.
      if (!(await ctx.jobs.get(jobId))) throw err;
    }
  }
  const updated = await ctx.requests.mutate(request.id, (current) =>
    current.jobId === jobId ? undefined : { jobId },
  );
  ctx.wake();
  return updated ?? request;
}

/** Queues the first attempt of a callback when the request named a callback URL. */
export async function queueCallback(
  ctx: BotContext,
  request: BotRequest,
  event: CallbackEvent,
): Promise<void> {
  if (!request.callbackUrl) return;
  const payload: CallbackJobPayload = { requestId: request.id, event, deliveryId: randomUUID(), attempt: 1 };
  await ctx.jobs.enqueue(CALLBACK_JOB, payload, { maxAttempts: CALLBACK_JOB_ATTEMPTS });
  ctx.wake();
}

export async function queueChat(
  ctx: BotContext,
  requestId: string,
  kind: ChatJobKind,
  state?: string,
): Promise<void> {
  if (!ctx.chatEnabled) return;
  const payload: ChatJobPayload = { requestId, kind, ...(state ? { state } : {}) };
  await ctx.jobs.enqueue(CHAT_JOB, payload, { maxAttempts: 3 });
  ctx.wake();
}

/**
 * One delivery attempt. A network failure or a 5xx queues the next attempt (after 1 s, then 4 s by default)
 * until three were made; a 4xx or the third failure ends the delivery, recorded in the job's result.
 */
export async function handleCallbackJob(ctx: BotContext, job: Job): Promise<unknown> {
  const p = job.payload as CallbackJobPayload;
  const request = await ctx.requests.get(p.requestId);
  const secret = ctx.callbacks.secret;
  if (!request?.callbackUrl || !secret) return { skipped: true };
  const body = JSON.stringify(toPublicRecord(request));
  const result = await deliverCallback({
    url: request.callbackUrl,
    body,
    event: p.event,
    deliveryId: p.deliveryId,
    attempt: p.attempt,
    secret,
    ca: ctx.callbacks.ca,
    now: ctx.now,
  });
  const where = { requestId: request.id, delivery: `${p.deliveryId}:${p.attempt}`, event: p.event };
  if (result.ok) return { delivered: true, status: result.status, attempt: p.attempt };
  if (result.retryable && p.attempt < CALLBACK_ATTEMPTS) {
    const next: CallbackJobPayload = { ...p, attempt: p.attempt + 1 };
    const runAfter = new Date(ctx.now().getTime() + callbackBackoffMs(p.attempt, ctx.callbacks.backoffMs));
    await ctx.jobs.enqueue(CALLBACK_JOB, next, { maxAttempts: CALLBACK_JOB_ATTEMPTS, runAfter });
    ctx.wake();
    ctx.log.warn({ ...where, error: result.error }, 'callback attempt failed; retrying');
    return { delivered: false, retrying: true, error: result.error };
  }
  ctx.log.warn({ ...where, error: result.error }, 'callback delivery gave up');
  return { delivered: false, error: result.error, status: result.status };
}

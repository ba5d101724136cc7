// GET /api/v1/runs/{id}/logs/stream: a run's log as Server-Sent Events. Each line is one `event: log` with
// `id: <cursor>` (the line's position in the run's log) and `data:` one LogLine JSON. The stream replays
// from `Last-Event-ID` (or the start), follows live lines while the run is not terminal, sends an SSE
// comment as keep-alive, and ends once the run is terminal and its tail was sent, with a last `event: end`
// that says so. A standard EventSource reconnects after any close, so a reconnect to a finished run whose
// every line the client already holds (its Last-Event-ID is at or past the last cursor) answers 204, which
// tells EventSource to stop for good. A slow reader only slows itself: its socket holds at most one write
// past its high-water mark, the hub lets go of it and it continues by its cursor from the hub's ring of
// encoded batches, then from the store. A client that accepts gzip (browsers' EventSource does) gets the same
// text gzip-encoded, each batch deflated once for every such follower (logs/sse-body.ts). While a follower
// keeps up, the hub writes its live lines to the response itself, at the run's beat: one write of shared
// bytes per follower and beat (logs/live.ts); what the follower loop yields (replay, catch-up) is written here.
import { badRequest, notFound } from '@app/kit';
import { Type } from 'typebox';
import { TERMINAL_RUN } from '../domain/index.js';
import { followRunLogs } from '../logs/follow.js';
import type { LiveSink } from '../logs/live.js';
import { gzipSseBody, plainSseBody } from '../logs/sse-body.js';
import { acceptsGzip } from '../logs/sse-gzip.js';
import type { ExecutionData } from '../services/execution-data.js';
import type { StoreDb } from '../store/database.js';
import { runStatusOf } from '../store/lookups.js';
import type { Api } from './context.js';
import { errors, IdParams } from './schemas.js';

export interface LogStreamOptions {
  db: StoreDb;
  data: ExecutionData;
  /** Keep-alive comment interval (default 15 s). */
  keepAliveMs?: number;
  /** How often a run's followers check the store when nothing was published (default 1 s; once per run). */
  pollMs?: number;
}

const CURSOR = /^\d{1,15}$/;

/** `Last-Event-ID` as a cursor: absent or empty is the start; anything but a cursor is a 400. */
export function parseLastEventId(value: string | string[] | undefined): number {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (v === undefined || v === '') return 0;
  if (!CURSOR.test(v))
    throw badRequest('Last-Event-ID must be the id of an event of this stream (a non-negative integer)');
  return Number(v);
}

export function registerLogStreamRoute(api: Api, options: LogStreamOptions): void {
  const { db, data } = options;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  api.get('/api/v1/runs/:id/logs/stream', {
    config: { access: 'viewer' },
    schema: {
      tags: ['runs'],
      summary: "Follow a run's log (Server-Sent Events)",
      description:
        'Each event is `event: log`, `id: <cursor>` and `data:` one LogLine JSON (`job_run_id`, its alias ' +
        "`job_id`, `seq`, `stream`, `at`, `text`). Lines come in the order they were stored; each job run's " +
        'lines in `seq` order. Send `Last-Event-ID: <cursor>` to resume after that event. Keep-alives are SSE ' +
        'comments every 15 s. The stream ends once the run is terminal and every stored line was sent (at ' +
        'once for a finished run, after replaying it); its last event is `event: end` with `id:` the last ' +
        'cursor and `data:` `{"status": <the run\'s terminal status>}`. A request with `Last-Event-ID` for a ' +
        'finished run that has no line after that cursor answers 204, so a standard EventSource stops ' +
        'reconnecting. When the stream cannot continue (the database is ' +
        'unavailable) it sends `event: error` with `{error}` and drops the connection instead of ending ' +
        "cleanly: reconnect with `Last-Event-ID`. A client whose `Accept-Encoding` accepts gzip (browsers' " +
        'EventSource does) gets the same stream with `Content-Encoding: gzip`, flushed after every write so ' +
        'each event can be decoded as it arrives; other clients get it unencoded. Responses carry ' +
        '`Vary: Accept-Encoding`.',
      params: IdParams,
      querystring: Type.Object({}, { additionalProperties: false }),
      headers: Type.Object({
        'last-event-id': Type.Optional(Type.String({ description: 'the id of the last event received' })),
        'accept-encoding': Type.Optional(
          Type.String({ description: 'with `gzip` (not `q=0`), the stream is sent gzip-encoded' }),
        ),
      }),
      response: {
        200: {
          description: 'text/event-stream',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        204: {
          description: 'the run is over and the client already holds every line (its Last-Event-ID)',
          type: 'null',
        },
        ...errors(400, 404),
      },
    },
    handler: async (request, reply) => {
      const runId = request.params.id.toLowerCase();
      const resuming = request.headers['last-event-id'] !== undefined;
      const after = parseLastEventId(request.headers['last-event-id']);
      const status = await runStatusOf(db, runId);
      if (!status) throw notFound(`run ${runId} does not exist`);
      const isFinished = async () => {
        const now = await runStatusOf(db, runId);
        return !now || TERMINAL_RUN.includes(now);
      };
      // A reconnect after the end: nothing left to send, and 204 is what makes EventSource stop.
      if (resuming && TERMINAL_RUN.includes(status)) {
        const rest = await data.logs.readRunLogs(runId, after, 1);
        if (rest.length === 0) return reply.code(204).send(null);
      }

      const body = acceptsGzip(request.headers['accept-encoding'])
        ? gzipSseBody(data.hub.encoder)
        : plainSseBody(data.hub.encoder);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
        vary: 'Accept-Encoding',
        ...(body.contentEncoding ? { 'content-encoding': body.contentEncoding } : {}),
      });
      res.write(body.start());
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      let corked = false;
      const uncork = () => {
        if (!corked) return;
        corked = false;
        res.uncork();
      };
      let lastCursor = after;
      const keepAlive = setInterval(() => {
        if (!res.writableNeedDrain && !res.writableEnded) res.write(body.keepAlive());
      }, keepAliveMs);
      const drained = () =>
        new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      // The hub's writes of live lines: shared bytes, one write per beat; false sends the follower back to
      // its loop, which waits for `ready` before it catches up.
      const live: LiveSink = {
        write: (lines) => {
          if (res.destroyed || res.writableEnded) return false;
          lastCursor = lines.last;
          return res.write(body.lines(lines));
        },
        ready: () => (res.writableNeedDrain && !res.destroyed ? drained() : Promise.resolve()),
      };
      try {
        for await (const batch of followRunLogs({
          store: data.logs,
          hub: data.hub,
          runId,
          after,
          isFinished,
          pollMs: options.pollMs,
          signal: abort.signal,
          live,
        })) {
          if (abort.signal.aborted) break;
          // The batches a follower takes at one wake arrive here back to back (no I/O between them): corked,
          // they leave in one write. Every cork is matched by exactly one uncork (an extra uncork of an
          // http response leaves its chunk buffer stuck).
          if (!corked) {
            corked = true;
            res.cork();
            process.nextTick(uncork);
          }
          if (batch.length > 0) lastCursor = batch[batch.length - 1].cursor;
          // Live lines reach every follower as the hub's shared batches (and followers at one cursor share
          // store pages): the encoder makes each batch's bytes once and every socket writes them as they are.
          if (!res.write(body.batch(batch))) {
            uncork();
            // The reader is slow: wait for it (live lines stay in the hub's ring meanwhile).
            if (!res.destroyed) await drained();
          }
        }
        if (!abort.signal.aborted && !res.writableEnded) {
          // The follower ended because the run is terminal and its tail was sent: say so, with the last
          // cursor as the id, so the client's reconnect (if it makes one) carries it and is answered 204.
          const final = (await runStatusOf(db, runId)) ?? 'canceled';
          res.write(
            body.end(`event: end\nid: ${lastCursor}\ndata: ${JSON.stringify({ status: final })}\n\n`),
          );
        }
      } catch (err) {
        request.log.warn({ err, runId }, 'log stream ended by an error');
        // A stream that cannot continue (the store is unreachable) must not look finished: a clean end means
        // "the run is over" to clients. Say why in an `error` event, then drop the connection so the client
        // reconnects with Last-Event-ID.
        if (!res.writableEnded && !res.destroyed) {
          res.write(
            body.event(
              `event: error\ndata: ${JSON.stringify({ error: 'the log store is unavailable; reconnect to resume' })}\n\n`,
            ),
          );
          res.destroy();
        }
      } finally {
        clearInterval(keepAlive);
        if (!res.writableEnded && !res.destroyed) res.end();
      }
    },
  });
}

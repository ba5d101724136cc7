// The log stream as a standard client sees it: the `eventsource` npm package (the WHATWG EventSource for
// Node.js) follows a live run over real HTTP, receives every line once and in order, then `event: end` with
// the run's status; its own automatic reconnect after the close is answered 204 and it stops for good.
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataFixture, lines, startDataFixture } from './fixture.js';

describe('log stream with a standard EventSource client', () => {
  let f: DataFixture;
  let base: string;
  beforeAll(async () => {
    f = await startDataFixture('sqlite');
    await f.server.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = f.server.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(() => f.server.close());

  /** Opens an EventSource on a run's stream; records every response status and every event. */
  function follow(runId: string) {
    const statuses: number[] = [];
    const events: { type: string; id: string; data: any }[] = [];
    const es = new EventSource(`${base}/api/v1/runs/${runId}/logs/stream`, {
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        statuses.push(res.status);
        return res;
      },
    });
    const record = (type: string) => (e: MessageEvent) =>
      events.push({ type, id: e.lastEventId, data: JSON.parse(e.data) });
    es.addEventListener('log', record('log'));
    es.addEventListener('end', record('end'));
    // EventSource gives up (readyState CLOSED) only when a response is not a 200 stream: here the 204.
    const stopped = new Promise<void>((resolve) => {
      es.onerror = () => {
        if (es.readyState === EventSource.CLOSED) resolve();
      };
    });
    const received = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (events.length >= n ? resolve() : setImmediate(check));
        check();
      });
    return { es, statuses, events, stopped, received };
  }

  it('follows a live run, gets `end` with the status, and stops after a 204 on its reconnect', async () => {
    const { runId, compile, lint } = await f.newRun();
    const logs = f.server.execution.logs;
    await logs.appendLogBatch(compile, lines(20));
    const client = follow(runId);
    await client.received(20);
    await logs.appendLogBatch(lint, lines(15, 1, 'lint'));
    await client.received(35);
    await f.finishRun(runId, 'failed');
    await client.stopped;
    client.es.close();

    expect(client.statuses).toEqual([200, 204]);
    const logEvents = client.events.filter((e) => e.type === 'log');
    expect(logEvents.map((e) => Number(e.id))).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
    expect(client.events.at(-1)).toEqual({ type: 'end', id: '35', data: { status: 'failed' } });
    expect(client.events.filter((e) => e.type === 'end')).toHaveLength(1);
  });

  it('a finished run without any line: `end` with id 0, then the reconnect is a 204', async () => {
    const { runId } = await f.newRun();
    await f.finishRun(runId);
    const client = follow(runId);
    await client.stopped;
    client.es.close();
    expect(client.statuses).toEqual([200, 204]);
    expect(client.events).toEqual([{ type: 'end', id: '0', data: { status: 'success' } }]);
  });
});

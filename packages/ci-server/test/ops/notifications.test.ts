// Notifications end to end on SQLite and PostgreSQL: run transitions write outbox rows in their own
// transaction (started, failed, succeeded, fixed), and the deliverer sends them to a real local HTTP
// receiver (signed webhook, Slack-style chat with a link to the run) and a real SMTP server (nodemailer),
// retries a 503 with the same idempotency key after its backoff, gives up on a 410, and the per-project
// history shows each delivery.
import { hmacSha256Hex } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationDeliverer } from '../../src/notifications/deliverer.js';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../src/notifications/settings.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, startDataFixture } from '../execution-data/fixture.js';
import { type HttpReceiver, startHttpReceiver, startSmtpReceiver } from './receivers.js';

const SECRET = 'notify-test-secret';

describe.each(STORES)('notifications on %s', (kind) => {
  let f: DataFixture;
  let http: HttpReceiver;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let deliverer: NotificationDeliverer;
  beforeAll(async () => {
    f = await startDataFixture(kind);
    http = await startHttpReceiver();
    smtp = await startSmtpReceiver();
    deliverer = new NotificationDeliverer({
      db: f.server.database.db,
      publicUrl: 'http://ci.example.test',
      settings: {
        ...DEFAULT_NOTIFICATION_SETTINGS,
        signingSecret: SECRET,
        backoffMs: 1,
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'ci@example.test' },
      },
    });
  });
  afterAll(async () => {
    await deliverer.stop();
    await http.close();
    await smtp.close();
    await f.server.close();
  });

  const history = async (query = '') =>
    (await f.api.get(`/api/v1/projects/shop/notifications/deliveries${query}`)).body;

  it('writes the outbox with the run transitions and delivers every channel', async () => {
    const put = await f.api.call('PUT', '/api/v1/projects/shop/notifications', {
      channels: [
        {
          kind: 'webhook',
          target: `${http.url}/hook`,
          events: ['run.started', 'run.succeeded', 'run.failed', 'run.fixed'],
        },
        { kind: 'chat', target: `${http.url}/chat`, events: ['run.failed', 'run.fixed'] },
        { kind: 'email', target: 'dev@example.test', events: ['run.failed'] },
        { kind: 'webhook', target: `${http.url}/fail-once`, events: ['run.succeeded'] },
        { kind: 'webhook', target: `${http.url}/gone`, events: ['run.started'] },
      ],
    });
    expect(put.status).toBe(200);

    const first = await f.newRun();
    await f.finishRun(first.runId, 'failed');
    const second = await f.newRun();
    await f.finishRun(second.runId, 'success');

    const pending = await history('?status=pending');
    // started ×2 (hook, gone) + failed (hook, chat, email) + succeeded (hook, fail-once) + fixed (hook, chat)
    expect(pending.total).toBe(4 + 3 + 2 + 2);

    expect(await deliverer.deliverDue()).toBe(11);
    const hooks = http.requests.filter((r) => r.path === '/hook');
    expect(hooks.map((r) => r.headers['x-ci-event']).sort()).toEqual(
      ['run.failed', 'run.fixed', 'run.started', 'run.started', 'run.succeeded'].sort(),
    );
    for (const r of hooks) {
      const ts = String(r.headers['x-ci-timestamp']);
      expect(r.headers['x-ci-signature']).toBe(`v1=${hmacSha256Hex(SECRET, `${ts}.${r.body}`)}`);
      const body = JSON.parse(r.body);
      expect(body.idempotency_key).toBe(r.headers['idempotency-key']);
      expect(body.project.slug).toBe('shop');
      expect(body.run.url).toBe(`http://ci.example.test/runs/${body.run.id}`);
    }
    const fixed = hooks.find((r) => r.headers['x-ci-event'] === 'run.fixed')!;
    expect(JSON.parse(fixed.body).run.id).toBe(second.runId);

    const chats = http.requests.filter((r) => r.path === '/chat').map((r) => JSON.parse(r.body).text);
    expect(chats).toHaveLength(2);
    expect(chats.find((t: string) => t.includes('failed'))).toContain(
      `<http://ci.example.test/runs/${first.runId}|open run>`,
    );
    expect(chats.find((t: string) => t.includes('fixed'))).toMatch(/^shop\/build #\d+ is fixed/);

    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual(['dev@example.test']);
    expect(smtp.mails[0].raw).toMatch(/Subject: \[CI\] shop\/build #\d+ failed/);
    expect(smtp.mails[0].raw).toContain(`http://ci.example.test/runs/${first.runId}`);

    const gone = (await history('?status=failed')).deliveries;
    // Both runs' start went to the receiver that answers 410: refused for good after one attempt each.
    expect(gone).toHaveLength(2);
    for (const g of gone)
      expect(g).toMatchObject({ event: 'run.started', response_status: 410, attempts: 1 });
    const retry = (await history('?status=pending')).deliveries;
    expect(retry).toHaveLength(1);
    expect(retry[0]).toMatchObject({ event: 'run.succeeded', attempts: 1, response_status: 503 });
    expect(retry[0].last_error).toContain('503');
  });

  it('retries after the backoff with the same idempotency key, once delivered stays delivered', async () => {
    // The backoff is 1 ms; move the due time into the past instead of waiting on a clock.
    await f.db
      .updateTable('notification_outbox' as any)
      .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .where('status', '=', 'pending')
      .execute();
    expect(await deliverer.deliverDue()).toBe(1);
    const flaky = http.requests.filter((r) => r.path === '/fail-once');
    expect(flaky).toHaveLength(2);
    expect(flaky[0].headers['idempotency-key']).toBe(flaky[1].headers['idempotency-key']);
    expect(String(flaky[1].headers['x-ci-delivery'])).toMatch(/:2$/);
    const all = await history();
    expect(all.deliveries.filter((d: { status: string }) => d.status === 'pending')).toEqual([]);
    expect(all.deliveries.filter((d: { status: string }) => d.status === 'delivered')).toHaveLength(9);
    expect(await deliverer.deliverDue()).toBe(0);
    expect((await f.api.get('/api/v1/projects/shop/notifications/deliveries?status=bogus')).status).toBe(400);
    expect((await f.api.get('/api/v1/projects/nope/notifications/deliveries')).status).toBe(404);
  });
});

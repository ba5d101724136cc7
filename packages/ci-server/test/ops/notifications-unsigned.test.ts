// Webhook notifications without a signing secret: delivered unsigned (no X-CI-Signature), as GitHub, GitLab
// and Buildkite deliver a webhook that has no secret, and the notification settings say so when they are
// saved and read — instead of every delivery failing silently behind the history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationDeliverer } from '../../src/notifications/deliverer.js';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../src/notifications/settings.js';
import { type DataFixture, startDataFixture } from '../execution-data/fixture.js';
import { type HttpReceiver, startHttpReceiver } from './receivers.js';

describe('webhook notifications without a signing secret', () => {
  let f: DataFixture;
  let http: HttpReceiver;
  beforeAll(async () => {
    // The fixture's server has no CI_NOTIFICATION_SECRET and no CI_CONFIG notifications.signing_secret.
    f = await startDataFixture('sqlite');
    http = await startHttpReceiver();
  });
  afterAll(async () => {
    await http.close();
    await f.server.close();
  });

  it('says at configuration time that webhooks go unsigned, and delivers them unsigned', async () => {
    const put = await f.api.call('PUT', '/api/v1/projects/shop/notifications', {
      channels: [{ kind: 'webhook', target: `${http.url}/hook`, events: ['run.started'] }],
    });
    expect(put.status).toBe(200);
    expect(put.body.warnings).toEqual([expect.stringContaining('delivered unsigned')]);
    expect(put.body.warnings[0]).toContain('CI_NOTIFICATION_SECRET');
    expect((await f.api.get('/api/v1/projects/shop/notifications')).body.warnings).toEqual(put.body.warnings);

    const { runId } = await f.newRun();
    await f.finishRun(runId); // started (the channel's event) and succeeded
    const deliverer = new NotificationDeliverer({
      db: f.server.database.db,
      publicUrl: 'http://ci.example.test',
      settings: { ...DEFAULT_NOTIFICATION_SETTINGS },
    });
    try {
      expect(await deliverer.deliverDue()).toBe(1);
    } finally {
      await deliverer.stop();
    }
    const [hook] = http.requests.filter((r) => r.path === '/hook');
    expect(hook.headers['x-ci-event']).toBe('run.started');
    expect(hook.headers['x-ci-signature']).toBeUndefined();
    const history = (await f.api.get('/api/v1/projects/shop/notifications/deliveries')).body;
    expect(history.deliveries[0].status).toBe('delivered');

    // Without a webhook channel there is nothing to warn about.
    const email = await f.api.call('PUT', '/api/v1/projects/shop/notifications', {
      channels: [{ kind: 'email', target: 'dev@example.test', events: ['run.failed'] }],
    });
    expect(email.body.warnings).toBeUndefined();
  });
});

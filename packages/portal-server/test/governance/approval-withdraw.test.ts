// POST /api/approvals/{id}/withdraw: the requester takes back a pending request (audited), nobody else may
// (403, audited), a decided one is 409, an unknown id 404, no session 401, no storage 503; a withdrawn
// request opens no window and is not answered again for the same text.
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/execution/contracts.js';
import { ApprovalService } from '../../src/governance/approvals.js';
import { registerApprovalWithdrawRoute } from '../../src/http/approval-withdraw.js';
import { ApprovalRepository } from '../../src/storage/approvals.js';
import type { PortalStore } from '../../src/storage/store.js';
import { as, fakeSessions, testApp } from '../audit/fake-session.js';
import { clock, directoryFor, managedDs, sqliteStore } from './policy-harness.js';

const MANAGED = [managedDs('prod', { type: 'postgres' }, {})];

describe('withdrawing an approval request', () => {
  let store: PortalStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  async function setup(withStore = true) {
    store = withStore ? await sqliteStore() : undefined;
    const c = clock();
    const repository = store ? new ApprovalRepository(store.db, () => c.now) : undefined;
    const events: AuditEvent[] = [];
    const approvals = new ApprovalService({
      repository,
      ttlHours: 24,
      directory: directoryFor(MANAGED),
      now: () => c.now,
    });
    const app = testApp();
    registerApprovalWithdrawRoute(app, {
      sessions: fakeSessions,
      repository,
      audit: { record: (e) => void events.push(e) },
      now: () => c.now,
    });
    await app.ready();
    const withdraw = (id: string, who?: string) =>
      app.inject({
        method: 'POST',
        url: `/api/approvals/${id}/withdraw`,
        payload: {},
        headers: who ? as(who) : {},
      });
    return { approvals, withdraw, events };
  }

  const ask = (approvals: ApprovalService, statement = 'DELETE FROM t WHERE id = 1') =>
    approvals.request({
      datasource: { id: 'prod', name: 'prod' },
      requester: 'alice@example.com',
      statement,
      route: 'query',
      reusePending: true,
    });

  it('lets the requester withdraw a pending request, audited; then it is closed', async () => {
    const { approvals, withdraw, events } = await setup();
    const a = await ask(approvals);
    expect((await withdraw(a.id)).statusCode).toBe(401);
    const other = await withdraw(a.id, 'user:bob@example.com');
    expect(other.statusCode).toBe(403);
    expect(events.at(-1)).toMatchObject({
      type: 'permission_denied',
      actor: 'bob@example.com',
      approvalId: a.id,
    });
    const r = await withdraw(a.id, 'user:ALICE@example.com');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id: a.id, status: 'withdrawn', reviewer: 'ALICE@example.com' });
    expect(r.json().version).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'approval_withdrawn', approvalId: a.id, result: 'success' });
    const again = await withdraw(a.id, 'user:alice@example.com');
    expect(again.statusCode).toBe(409);
    expect(again.json().approval.status).toBe('withdrawn');
    // The same text asks anew; a withdrawn request is never answered as the pending one.
    expect((await ask(approvals)).id).not.toBe(a.id);
    expect(
      await approvals.findOpenWindow({
        datasourceId: 'prod',
        requester: 'alice@example.com',
        statement: 'DELETE FROM t WHERE id = 1',
        route: 'query',
      }),
    ).toBeUndefined();
  });

  it('answers 404 for an unknown id and 503 without storage', async () => {
    const { withdraw } = await setup();
    expect((await withdraw('nope', 'user:alice@example.com')).statusCode).toBe(404);
    await store?.close();
    store = undefined;
    const none = await setup(false);
    expect((await none.withdraw('x', 'user:alice@example.com')).statusCode).toBe(503);
  });
});

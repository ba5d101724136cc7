// Governance and administration in a real browser: a user's write on the datasource with write approval is
// held (the notice shows the pending request and its live status), the administrator approves it on the
// approvals page from another browser, and the user's page sees the approval and runs the same text without
// a click. Then the admin page: the audit log with a filter, and a service token created (secret shown once)
// and revoked.

import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, editorText, setSql, startUi, type UiHarness, USER, visible } from './harness.js';

const WRITE = "insert into entries (note) values ('added from the browser')";

function ledgerNotes(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('select note from entries order by id').all() as { note: string }[]).map(
      (r) => r.note,
    );
  } finally {
    db.close();
  }
}

describe('portal web UI: approvals and administration', () => {
  let ui: UiHarness;
  let user: Page;
  let admin: Page;
  let approvalId = '';

  beforeAll(async () => {
    ui = await startUi();
    user = await ui.signedInPage(USER);
    admin = await ui.signedInPage(ADMIN);
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('lands the administrator on the workspace with an Admin link', async () => {
    expect(new URL(admin.url()).pathname).toBe('/');
    await visible(admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }));
  });

  it('holds a user write on the approval datasource with the APPROVAL_REQUIRED notice', async () => {
    await user.getByRole('button', { name: /^Ledger/ }).click();
    await visible(user.getByRole('heading', { name: 'Ledger', level: 1 }));
    await visible(user.getByRole('list', { name: 'Datasource policy' }).getByText('writes need approval'));
    await setSql(user, WRITE);
    await user.getByRole('button', { name: 'Run', exact: true }).click();
    const notice = await visible(user.getByRole('alert', { name: 'Approval required' }));
    approvalId = ((await notice.getByTestId('approval-id').textContent()) ?? '').trim();
    expect(approvalId).not.toBe('');
    expect(await notice.getByTestId('approval-status').textContent()).toBe('pending');
    expect(ledgerNotes(ui.files.ledger)).toEqual(['opening']);
    const link = notice.getByRole('link', { name: 'approvals page' });
    expect(await link.getAttribute('href')).toBe(`/approvals#${approvalId}`);
    await ui.screenshot(user, 'approval-required');
  });

  it('lets the administrator approve it on the approvals page', async () => {
    // The inbox count in the top bar shows the waiting request (read every 20 s; a reload reads it now).
    await admin.reload();
    await visible(admin.getByTestId('inbox-count').filter({ hasText: /^1$/ }));
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }).click();
    const card = await visible(admin.getByRole('article', { name: `Request ${approvalId}` }));
    expect(await card.textContent()).toContain(USER.email);
    await card.getByLabel('Approval window in minutes').fill('30');
    await card.getByLabel('Note').fill('fine for the test');
    await ui.screenshot(admin, 'approvals');
    await card.getByRole('button', { name: 'Approve' }).click();
    await visible(card.locator('.badge.status-approved'));
    expect(await card.textContent()).toContain('fine for the test');
    expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  });

  it('runs the same text for the requester as soon as the approval lands, without a click', async () => {
    // The requester's page reads the request's status while it waits; the approval makes it run the text.
    await visible(
      user.getByRole('status').filter({ hasText: /Statement executed\.\s*1 row affected/ }),
      30_000,
    );
    expect(ledgerNotes(ui.files.ledger)).toEqual(['opening', 'added from the browser']);
    expect(await editorText(user)).toBe(WRITE);

    // The requester finds it under "My requests", approved, and cannot decide it.
    await user.goto(`/approvals?scope=mine#${approvalId}`);
    await visible(user.getByRole('tab', { name: 'My requests', selected: true }));
    const mine = await visible(user.getByRole('article', { name: `Request ${approvalId}` }));
    expect(await mine.textContent()).toContain(WRITE);
    await visible(mine.locator('.badge.status-approved'));
    expect(await mine.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  });

  it('shows the audit log with filters', async () => {
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    const events = admin.getByRole('table', { name: 'Audit events' });
    await visible(events.getByRole('cell', { name: 'approval_requested' }));
    await admin.getByLabel('Type').fill('query_execution');
    await admin.getByLabel('Actor').fill(USER.email);
    await admin.getByRole('button', { name: 'Apply' }).click();
    await visible(admin.getByRole('status').filter({ hasText: 'of 1' }));
    const rows = events.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(WRITE);
    await ui.screenshot(admin, 'admin-audit');
    await rows.first().click();
    await visible(events.locator('tr.expanded').filter({ hasText: '"approved_by"' }));
  });

  it('creates a service token, shows its secret once, and revokes it', async () => {
    await admin.getByRole('tab', { name: 'Service tokens' }).click();
    const form = admin.getByRole('form', { name: 'Create service token' });
    await form.getByLabel('Name').fill('chat-bot');
    await form.getByLabel('Datasources').fill('ledger, sales');
    await form.getByLabel('Every request needs approval').check();
    await form.getByRole('button', { name: 'Create token' }).click();
    const secret = ((await (await visible(admin.getByTestId('token-secret'))).textContent()) ?? '').trim();
    expect(secret).toMatch(/^pst_/);
    const table = admin.getByRole('table', { name: 'Service tokens' });
    const row = table.locator('tbody tr').filter({ hasText: 'chat-bot' });
    await visible(row);
    expect(await row.textContent()).toContain('ledger, sales');
    await ui.screenshot(admin, 'admin-tokens');

    // The secret works on the bot API until the token is revoked.
    const ask = () =>
      fetch(`${ui.baseUrl}/api/v1/executions/00000000-0000-0000-0000-000000000000`, {
        headers: { authorization: `Bearer ${secret}` },
      });
    expect((await ask()).status).toBe(404);
    await admin.getByRole('button', { name: 'Done' }).click();
    expect(await admin.getByTestId('token-secret').count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke chat-bot' }).click();
    await row.getByRole('button', { name: 'Confirm revoke' }).click();
    await visible(table.getByRole('cell', { name: 'No live tokens.' }));
    expect((await ask()).status).toBe(401);
  });

  it('lists managed datasources with their policy, checks fleet health, and runs a maintenance operation', async () => {
    await admin.getByRole('tab', { name: 'Datasources' }).click();
    const table = admin.getByRole('table', { name: 'Datasources' });
    const ledger = table.locator('tbody tr').filter({ hasText: 'Ledger' });
    await visible(ledger);
    expect(await ledger.textContent()).toContain('writes need approval');
    await admin.getByRole('button', { name: 'Check fleet health' }).click();
    await visible(admin.getByTestId('health-sales').filter({ hasText: /^ok · \d+ ms$/ }));
    await visible(admin.getByTestId('health-ledger').filter({ hasText: /^ok/ }));
    const form = table.getByRole('form', { name: 'Maintenance of Sales' });
    await form.getByLabel('Operation').selectOption('integrity_check');
    await form.getByRole('button', { name: 'Run' }).click();
    await visible(form.getByRole('status').filter({ hasText: /integrity_check done in \d+ ms/ }));
    await ui.screenshot(admin, 'admin-datasources');
  });
});

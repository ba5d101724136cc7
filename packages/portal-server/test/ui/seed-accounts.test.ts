// The seed-data and account pages of the admin area in a real browser, against a real PostgreSQL: the plan
// preview lists the 20 tables in fill order with the cycle note, a run started from the page is followed to
// `done` by the studio's own job runner, and the accounts page previews masked statements and shows each
// statement's outcome after creating the accounts (passwords to the Vault test double, never on the page).
import { createPostgresDatabase } from '@app/kit/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { datasourceEntry } from '../bot/harness.js';
import { startVaultDouble, type VaultDouble } from '../provisioning/vault-double.js';
import { sqlOn } from '../seed/helpers.js';
import { schemaSql, TABLE_COUNT } from '../seed/schema.js';
import { ADMIN, startUi, type UiHarness, visible } from './harness.js';

describe('portal web UI: seed data and accounts', () => {
  let ui: UiHarness;
  let admin: Page;
  let url: string;
  let vault: VaultDouble;

  beforeAll(async () => {
    url = await createPostgresDatabase(inject('services').postgresUrl, 'seedui');
    await sqlOn('postgres', url, schemaSql('postgres'));
    vault = await startVaultDouble();
    ui = await startUi(
      { VAULT_ADDR: vault.addr, VAULT_TOKEN: vault.token },
      {
        datasources: datasourceEntry('shop-ui', 'postgres', url, ['name: Shop', 'environment: development']),
      },
    );
    ({ page: admin } = await ui.newPage());
    await ui.signIn(admin, ADMIN);
  }, 180_000);

  afterAll(async () => {
    await ui?.close();
    await vault?.close();
  });

  it('previews the seed plan, runs it and follows its progress to done', async () => {
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Seed data' }).click();
    const form = await visible(admin.getByRole('form', { name: 'Seed data plan' }));
    await form.getByLabel('Datasource', { exact: true }).selectOption('shop-ui');
    await form.getByRole('button', { name: 'Preview plan' }).click();
    const preview = await visible(admin.getByRole('region', { name: 'Seed plan preview' }));
    expect(await preview.getByRole('heading').textContent()).toContain(`${TABLE_COUNT} tables in fill order`);
    expect(await preview.textContent()).toMatch(/cycle .*teams.*broken through the nullable key/);
    await preview.getByLabel('Rows for products').fill('35');
    await ui.screenshot(admin, 'seed-plan');
    await preview.getByRole('button', { name: 'Run seed' }).click();
    const progress = await visible(admin.getByRole('region', { name: 'Seed run progress' }));
    await visible(progress.getByTestId('seed-run-status').filter({ hasText: 'done' }), 60_000);
    const rows = progress.getByRole('table', { name: 'Seed run tables' }).locator('tbody tr');
    expect(await rows.count()).toBe(TABLE_COUNT);
    expect(await progress.textContent()).toMatch(/products\s*done\s*35\s*35/);
    await ui.screenshot(admin, 'seed-run');
    const n = await sqlOn('postgres', url, ['SELECT COUNT(*)::int AS n FROM products']);
    expect(n[0].n).toBe(35);
  });

  it('previews the accounts with masked passwords and shows each statement ran', async () => {
    await admin.getByRole('tab', { name: 'Accounts' }).click();
    const form = await visible(admin.getByRole('form', { name: 'Account provisioning' }));
    await form.getByLabel('Datasource', { exact: true }).selectOption('shop-ui');
    await form.getByLabel('Schemas').fill('public');
    await form.getByLabel('Vault path').fill('portal/shop-ui');
    await form.getByRole('button', { name: 'Preview plan' }).click();
    const plan = await visible(admin.getByRole('region', { name: 'Account plan preview' }));
    const text = (await plan.textContent()) ?? '';
    expect(text).toContain('portal_ro_shop_ui');
    expect(text).toContain('portal_agent_shop_ui');
    expect(text).toContain("PASSWORD '********'");
    await plan.getByRole('button', { name: 'Create accounts' }).click();
    const results = await visible(admin.getByRole('region', { name: 'Account results' }));
    await visible(results.getByRole('heading', { name: /Accounts created/ }));
    const outcomes = await results
      .getByRole('table', { name: 'Account statements' })
      .locator('tbody tr td:last-child')
      .allTextContents();
    expect(outcomes.length).toBeGreaterThan(5);
    for (const o of outcomes) expect(o).toBe('ran');
    const stored = vault.secrets.get('secret/portal/shop-ui')?.data as Record<string, string>;
    expect(await admin.content()).not.toContain(stored.portal_ro_shop_ui);
    await ui.screenshot(admin, 'accounts-created');
  });
});

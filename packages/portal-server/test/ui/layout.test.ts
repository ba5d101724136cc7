// The signed-in layout route in a real browser (issue 30): approvals, monitoring and each administration
// section are pages of their own under the layout, at their own address, while the workspace stays mounted —
// after a trip through them and back, the open editor tabs, the editor text and the last result (kept only in
// memory, so a remount would lose it) are still there. Screenshots of a page under the layout, light and dark.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, editorText, setSql, startUi, type UiHarness, visible } from './harness.js';

describe('portal web UI: the layout route keeps the workspace', () => {
  let ui: UiHarness;
  let page: Page;

  beforeAll(async () => {
    ui = await startUi();
    ({ page } = await ui.newPage());
    await ui.signIn(page, ADMIN);
  });
  afterAll(async () => {
    await ui?.close();
  });

  const nav = () => page.getByRole('navigation', { name: 'Main' });
  const path = () => new URL(page.url()).pathname;
  const tabTitles = () =>
    page.getByRole('tablist', { name: 'Editor tabs' }).getByRole('tab').allTextContents();

  it('keeps editor tabs, text and the last result over approvals, monitoring and admin pages', async () => {
    await page.getByRole('button', { name: /^Sales/ }).click();
    await visible(page.getByRole('heading', { name: 'Sales', level: 1 }));
    await page.getByRole('button', { name: 'New tab' }).click();
    await setSql(page, 'select id, name from customers order by id');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await visible(page.getByTestId('row-count').filter({ hasText: /^3$/ }));
    const before = await tabTitles();
    expect(before).toEqual(['Query 1', 'Query 2']);

    // Approvals: its own page at its own address; the workspace is hidden, not gone.
    await nav()
      .getByRole('link', { name: /^Approvals/ })
      .click();
    await page.waitForURL((u) => u.pathname === '/approvals');
    await visible(page.getByRole('heading', { name: 'Approvals', level: 1 }));
    expect(await page.getByTestId('workspace-page').isHidden()).toBe(true);
    expect(
      await nav()
        .getByRole('link', { name: /^Approvals/ })
        .getAttribute('aria-current'),
    ).toBe('page');

    await nav().getByRole('link', { name: 'Monitoring' }).click();
    await page.waitForURL((u) => u.pathname === '/monitoring');

    // Administration opens on the audit log; each section is a route of its own.
    await nav().getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/audit');
    await visible(page.getByRole('table', { name: 'Audit events' }));
    await page.getByRole('tab', { name: 'Service tokens' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/tokens');
    await visible(page.getByRole('tab', { name: 'Service tokens', selected: true }));
    await ui.screenshot(page, 'layout-admin-tokens-light');

    // Back to the workspace: the same tabs, the same text, and the result that was never stored anywhere.
    await nav().getByRole('link', { name: 'Workspace' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await visible(page.getByTestId('row-count').filter({ hasText: /^3$/ }));
    expect(await tabTitles()).toEqual(before);
    expect(await editorText(page)).toBe('select id, name from customers order by id');
    expect(await page.getByRole('tab', { name: 'Query 2', selected: true }).count()).toBe(1);

    // The browser's back button walks the same routes without remounting the workspace either.
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/admin/tokens');
    await page.goForward();
    await page.waitForURL((u) => u.pathname === '/');
    await visible(page.getByTestId('row-count').filter({ hasText: /^3$/ }));
    await ui.screenshot(page, 'layout-workspace-back-light');
  });

  it('opens an administration section from its address, shows unknown addresses in the layout, in dark', async () => {
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await page.goto('/admin/datasources');
    await visible(page.getByRole('tab', { name: 'Datasources', selected: true }));
    await visible(nav().getByRole('link', { name: 'Workspace' }));
    await ui.screenshot(page, 'layout-admin-datasources-dark');
    await page.goto('/no/such/page');
    await visible(page.getByText('There is no page at /no/such/page'));
    expect(path()).toBe('/no/such/page');
    await visible(page.getByRole('link', { name: 'Go to the workspace' }));
    await ui.screenshot(page, 'layout-not-found-dark');
    await page.getByRole('button', { name: 'Use light theme' }).click();
  });
});

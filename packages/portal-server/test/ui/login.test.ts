// The sign-in page's other paths in a real browser, on a portal in OIDC mode whose administrator has a second
// factor: the `?error=` message and the single sign-on button, then the code field the server asks for.
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startUi, type UiHarness, visible } from './harness.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const totp = new TOTP({ secret: Secret.fromBase32(SECRET), algorithm: 'SHA1', digits: 6, period: 30 });

describe('portal web UI: sign-in page', () => {
  let ui: UiHarness;
  let page: Page;

  beforeAll(async () => {
    ui = await startUi({
      PUBLIC_AUTH_PROVIDER: 'oidc',
      // Discovery is lazy: the page only links to the login route, nothing here reaches the provider.
      OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 'client-secret-value',
      ADMIN_TOTP_SECRET: SECRET,
    });
    ({ page } = await ui.newPage());
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('shows the message of an ?error= code and the single sign-on button', async () => {
    await page.goto('/login?error=access_denied');
    await visible(page.getByRole('alert').filter({ hasText: 'The identity provider denied the sign-in.' }));
    const sso = await visible(page.getByRole('link', { name: 'Sign in with single sign-on' }));
    expect(await sso.getAttribute('href')).toBe('/api/auth/oidc/login');
  });

  it('asks for the two-factor code when the server needs it, then signs in with it', async () => {
    await page.goto('/login');
    expect(await page.getByLabel('Two-factor code').count()).toBe(0);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const code = await visible(page.getByLabel('Two-factor code'));
    await visible(page.getByRole('alert').filter({ hasText: 'Two-factor code required' }));
    await code.fill(totp.generate());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visible(page.getByTestId('username').filter({ hasText: ADMIN.email }));
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

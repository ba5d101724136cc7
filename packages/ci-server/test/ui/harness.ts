// Browser-test harness: a real control plane (SQLite, authentication on, a known administrator) listening on
// a free loopback port and serving the built web UI, the system Chromium driven by playwright-core, and
// helpers to sign in through the form and to call the API as a given user.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@app/kit/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { type CiServer, createCiServer, loadCiSettings } from '../../src/index.js';
import { ensureWebBuilt } from './build-web.js';

export const ADMIN_PASSWORD = 'ui-admin-password-1';
/** Generous for a loaded machine; locators wait on real state, never on a fixed delay. */
export const WAIT = { timeout: 20_000 };

export interface UiEnv {
  server: CiServer;
  base: string;
  grpcPort: number;
  browser: Browser;
  close(): Promise<void>;
}

export interface UiOptions {
  /** The token agents must present (tests with a real agent use the e2e harness's). */
  agentToken?: string;
  agentTiming?: { heartbeatMs: number; leaseMs: number; sweepMs: number };
}

export async function startUi(options: UiOptions = {}): Promise<UiEnv> {
  await ensureWebBuilt();
  const settings = loadCiSettings({
    // Cleartext agent port, as the e2e harness whose agents the UI tests start.
    CI_GRPC_TLS: 'off',
    CI_DATA_DIR: tempDir('ci-ui-'),
    CI_HOST: '127.0.0.1',
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: options.agentToken ?? 'ui-agent-token',
    CI_SECRET_KEY: '2'.repeat(64),
    CI_AUTH_ENABLED: 'true',
    CI_ADMIN_USERNAME: 'admin',
    CI_ADMIN_PASSWORD: ADMIN_PASSWORD,
  });
  const server = await createCiServer(settings, { logger: false, agentTiming: options.agentTiming });
  const { httpPort, grpcPort } = await server.listen();
  const base = `http://127.0.0.1:${httpPort}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    server,
    base,
    grpcPort,
    browser,
    async close() {
      await browser.close().catch(() => {});
      await server.close();
    },
  };
}

export interface UiPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed page scripts (CSP violations show up here). */
  problems: string[];
}

export async function openPage(
  env: UiEnv,
  viewport: { width: number; height: number } = { width: 1360, height: 900 },
): Promise<UiPage> {
  const context = await env.browser.newContext({ baseURL: env.base, viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT.timeout);
  const problems: string[] = [];
  // Monaco rejects its own pending work with "Canceled" when an editor is disposed (web-kit's monaco/setup.ts
  // marks those rejections handled); anything else thrown in the page is a problem.
  page.on('pageerror', (err) => {
    if (err.message !== 'Canceled') problems.push(`pageerror: ${err.message}`);
  });
  page.on('console', (msg) => {
    // 401/409… answers the UI handles are logged by Chromium as failed resources; those are not problems.
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) problems.push(msg.text());
  });
  return { context, page, problems };
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor(WAIT);
}

/** A page of its own, signed in as the administrator (the start of most browser tests). */
export async function adminPage(
  env: UiEnv,
  viewport: { width: number; height: number } = { width: 1280, height: 720 },
): Promise<UiPage> {
  const ui = await openPage(env, viewport);
  await signIn(ui.page, 'admin', ADMIN_PASSWORD);
  return ui;
}

/** Where the browser tests leave their screenshots: test-artifacts/ci-web at the repository root. */
export const SHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../test-artifacts/ci-web');

/** Saves a screenshot of `page` as `name` in SHOTS. */
export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name), fullPage });
}

/** After each failed test, a full-page picture of what the page (`ui()`, once opened) showed. */
export function shotOnFailure(ui: () => UiPage | undefined): void {
  afterEach(async (ctx) => {
    const page = ui()?.page;
    if (ctx.task.result?.state === 'fail' && page)
      await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, true).catch(() => {});
  });
}

/**
 * Replaces the text of the page's Monaco editor as a user pasting it would: select all, then a paste event
 * carrying the text (typing it would let the editor auto-indent every new line, as it does for people).
 */
export async function fillEditor(page: Page, text: string): Promise<void> {
  const editor = page.locator('.monaco-editor').first();
  await editor.waitFor(WAIT);
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await editor.locator('textarea').evaluate((area, value) => {
    // Runs in the page (DOM types are not in this Node project's lib).
    const page = globalThis as any;
    const data = new page.DataTransfer();
    data.setData('text/plain', value);
    area.dispatchEvent(
      new page.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** A link of the main navigation (exact, so "Runs" does not also match "all runs"). */
export function nav(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
}

/** API calls as a user, through the same cookie session a browser gets (with the Origin the server wants). */
export async function apiSession(env: UiEnv, username: string, password: string) {
  const login = await fetch(`${env.base}/auth/login/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`sign-in of ${username}: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('svc_session='))!
    .split(';')[0];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${env.base}${path}`, {
      method,
      headers: {
        cookie,
        origin: env.base,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    put: (path: string, body?: unknown) => call('PUT', path, body),
  };
}

export const BUNDLE = `project:
  slug: webshop
  name: Web Shop
  description: The shop front
pipelines:
  - name: build
    parameters:
      TARGET: staging
    stages: [build, test]
    jobs:
      compile:
        stage: build
        script: ["echo compiling"]
      unit:
        stage: test
        script: ["echo testing"]
        matrix:
          NODE: ["20", "22"]
  - name: deploy
    materials:
      - upstream: { pipeline: build, stage: test, status: success }
    stages: [gate, ship]
    jobs:
      approve:
        stage: gate
        approval: { description: Ship it?, required: 1, allow_self_approval: true }
      ship:
        stage: ship
        script: ["echo shipping"]
`;

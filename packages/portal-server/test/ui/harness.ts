// Shared setup of the browser tests: the web UI built if needed, a whole portal listening on a free loopback
// port (SQLite storage, known administrator and user accounts, PORTAL_DATASOURCES with two managed SQLite
// datasources under the data dir — `sales` pre-filled, `ledger` with `writeApproval` and `entries.note` masked), and the system
// Chromium driven by playwright-core (1280x720 unless a test asks otherwise). Screenshots go to
// test-artifacts/portal-web/ at the repository root (gitignored), or to UI_SCREENSHOTS=<dir>.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@app/kit/testing';
import Database from 'better-sqlite3';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { createPortalServer, loadPortalSettings, type PortalServer } from '../../src/index.js';
import { ADMIN, JWT_SECRET, USER } from '../auth/helpers.js';
import { ensureWebBuilt } from './build-web.js';

export { ADMIN, USER };

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SALES_SQL = `
  CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
  CREATE INDEX customers_city ON customers (city);
  CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    amount REAL NOT NULL
  );
  INSERT INTO customers (id, name, city) VALUES (1, 'Ada Lovelace', 'London'), (2, 'Grace Hopper', 'New York'),
    (3, 'Katherine Johnson', NULL);
  CREATE TABLE events (n INTEGER PRIMARY KEY);
  WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 620)
    INSERT INTO events (n) SELECT n FROM seq;
  INSERT INTO orders (id, customer_id, amount) VALUES (10, 1, 12.5), (11, 2, 99);
`;

const SHOT_DIR =
  process.env.UI_SCREENSHOTS ??
  fileURLToPath(new URL('../../../../test-artifacts/portal-web/', import.meta.url));

/**
 * Replaces the text of the Monaco editor the way a person pastes: focus, select all, insert. (Monaco keeps its
 * text in a model, not in a form field, so `fill` does not apply.)
 */
export async function setSql(page: Page, text: string): Promise<void> {
  const host = page.getByTestId('sql-editor');
  await host.locator('.view-lines').waitFor({ state: 'visible', timeout: 20_000 });
  // A suggestion list left open by the previous text (it opens on a space) lies over the lines below the
  // cursor: close it, and click the first line's start, which such a widget never covers.
  if (await host.locator('.suggest-widget.visible').count()) await page.keyboard.press('Escape');
  await host.locator('.view-lines').click({ position: { x: 4, y: 4 } });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  if (text) await page.keyboard.insertText(text);
}

/** The editor's text as its lines show it (Monaco renders non-breaking spaces). */
export async function editorText(page: Page): Promise<string> {
  // Monaco positions its line elements by `top`; their DOM order is not the text order.
  type Line = { textContent: string | null; style: { top: string } };
  const lines = await page
    .getByTestId('sql-editor')
    .locator('.view-line')
    .evaluateAll((els) =>
      (els as unknown as Line[])
        .map((e) => ({ top: Number.parseFloat(e.style.top) || 0, text: e.textContent ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text),
    );
  return lines.join('\n').replaceAll('\u00a0', ' ');
}

/** Waits (Playwright's auto-wait, no sleeps) until the locator shows; answers it for chaining. */
export async function visible(locator: Locator, timeout = 15_000): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return locator;
}

/** Whether the page fits the window's width (nothing overflows sideways). */
export function fitsWidth(page: Page): Promise<boolean> {
  // The root tsconfig has no DOM library: the two members read are described here.
  type Globals = { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
  return page.evaluate(() => {
    const g = globalThis as unknown as Globals;
    return g.document.documentElement.scrollWidth <= g.innerWidth;
  });
}

/** The text of every cell of the matched table rows, row by row. */
export function cellTexts(rows: Locator): Promise<string[][]> {
  // The root tsconfig has no DOM library: the element is described by the two members used.
  type Row = { children: ArrayLike<{ textContent: string | null }> };
  return rows.evaluateAll((trs) =>
    trs.map((tr) => Array.from((tr as unknown as Row).children, (c) => c.textContent ?? '')),
  );
}

/**
 * Opens `table` of the datasource whose button matches `datasource` in the table browser: the object tree's
 * `main` schema unfolded where needed, the table chosen, "Browse data"; answers the browser's region.
 */
export async function browseTable(page: Page, datasource: RegExp, table: string): Promise<Locator> {
  await page.getByRole('button', { name: datasource }).click();
  const tree = page.getByRole('region', { name: 'Objects' });
  const main = await visible(tree.getByRole('button', { name: 'main', exact: true }));
  if (!(await tree.getByRole('button', { name: table, exact: true }).count())) await main.click();
  await (await visible(tree.getByRole('button', { name: table, exact: true }))).click();
  await (await visible(page.getByRole('button', { name: 'Browse data' }))).click();
  return visible(page.getByRole('region', { name: `Table ${table}` }));
}

export interface UiHarness {
  server: PortalServer;
  baseUrl: string;
  dataDir: string;
  /** Absolute paths of the managed datasources' files. */
  files: { sales: string; ledger: string };
  browser: Browser;
  /** A fresh browser profile (cookies, storage) with downloads allowed. */
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
  signIn(page: Page, who: { email: string; password: string }): Promise<void>;
  /** A fresh page signed in as `who` (newPage, then signIn): the start of most browser tests. */
  signedInPage(who: { email: string; password: string }): Promise<Page>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteFile(file: string, sql: string): string {
  const db = new Database(file);
  db.exec(sql);
  db.close();
  return file;
}

/** `env` adds to (or overrides) the portal's settings, e.g. OIDC mode or a second factor. */
export async function startUi(
  env: Record<string, string> = {},
  /** Extra `datasources:` entries (indented YAML), e.g. a real PostgreSQL for the seed and account pages. */
  options: { datasources?: string } = {},
): Promise<UiHarness> {
  await ensureWebBuilt();
  const dataDir = tempDir('portal-ui-');
  const dbDir = join(dataDir, 'managed');
  mkdirSync(dbDir, { recursive: true });
  const files = {
    sales: sqliteFile(join(dbDir, 'sales.db'), SALES_SQL),
    ledger: sqliteFile(
      join(dbDir, 'ledger.db'),
      "CREATE TABLE entries (id INTEGER PRIMARY KEY, note TEXT NOT NULL); INSERT INTO entries (note) VALUES ('opening');",
    ),
  };
  const dsFile = join(dataDir, 'datasources.yaml');
  writeFileSync(
    dsFile,
    `datasources:
  - id: sales
    name: Sales
    type: sqlite
    database: ${JSON.stringify(files.sales)}
    environment: development
    roles: [admin, user]
  - id: ledger
    name: Ledger
    type: sqlite
    database: ${JSON.stringify(files.ledger)}
    environment: staging
    roles: [admin, user]
    policy: { writeApproval: true, masking: [{ column: "entries.note", rule: full }] }
${options.datasources ?? ''}`,
  );
  const server = await createPortalServer(
    loadPortalSettings({
      PORTAL_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      USER_EMAIL: USER.email,
      USER_PASSWORD: USER.password,
      STORAGE_PROVIDER: 'sqlite',
      PORTAL_DATASOURCES: dsFile,
      ...env,
    }),
    { logger: false },
  );
  let browser: Browser | undefined;
  try {
    await server.listen();
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  } catch (err) {
    await browser?.close();
    await server.close();
    throw err;
  }
  const addr = server.app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const shotDir = SHOT_DIR;
  const contexts: BrowserContext[] = [];
  const b = browser;
  const harness: UiHarness = {
    server,
    baseUrl,
    dataDir,
    files,
    browser: b,
    async newPage() {
      const context = await b.newContext({
        baseURL: baseUrl,
        acceptDownloads: true,
        viewport: { width: 1280, height: 720 },
      });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      return { context, page: await context.newPage() };
    },
    async signIn(page, who) {
      await page.goto('/login');
      await page.getByLabel('Email').fill(who.email);
      await page.getByLabel('Password').fill(who.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await visible(page.getByTestId('username').filter({ hasText: who.email }));
    },
    async signedInPage(who) {
      const { page } = await harness.newPage();
      await harness.signIn(page, who);
      return page;
    },
    async screenshot(page, name) {
      mkdirSync(shotDir, { recursive: true });
      await page.screenshot({ path: join(shotDir, `${name}.png`), fullPage: true });
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await b.close();
      await server.close();
    },
  };
  return harness;
}

// The MCP endpoint in the `agent` deployment role (PORTAL_ROLE=agent): session routes are gone (404) but
// /mcp answers a service token through the SDK's client, and a governed read runs there too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortalServer, loadPortalSettings, type PortalServer } from '../../src/index.js';
import { JWT_SECRET } from '../auth/helpers.js';

let server: PortalServer;
let base: string;
let secret: string;

beforeAll(async () => {
  const dir = tempDir('portal-mcp-agent-');
  const file = join(dir, 'notes.db');
  const db = new Database(file);
  db.exec(
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')",
  );
  db.close();
  const ds = join(dir, 'datasources.yaml');
  writeFileSync(
    ds,
    `datasources:\n  - id: notes\n    name: Notes\n    type: sqlite\n    database: ${JSON.stringify(file)}\n    roles: [admin, user]\n`,
  );
  server = await createPortalServer(
    loadPortalSettings({
      PORTAL_DATA_DIR: dir,
      HOST: '127.0.0.1',
      PORT: '0',
      JWT_SECRET,
      ADMIN_PASSWORD: 'admin-password-123',
      STORAGE_PROVIDER: 'sqlite',
      PORTAL_ROLE: 'agent',
      PORTAL_DATASOURCES: ds,
    }),
    { logger: false },
  );
  // The admin route is not served in this role: the token is made in storage, as a studio would have.
  const made = await server.store!.serviceTokens.create({ name: 'ops-bot', role: 'user' });
  secret = made.secret;
  base = `http://127.0.0.1:${await server.listen()}`;
});
afterAll(() => server?.close());

describe('MCP in the agent role', () => {
  it('serves /mcp with a service token while session routes answer 404', async () => {
    expect((await fetch(`${base}/api/agent/config`)).status).toBe(404);
    const client = new Client({ name: 'agent-role-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${secret}` } },
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('run_read');
      const r = (await client.callTool({
        name: 'run_read',
        arguments: { datasourceId: 'notes', sql: 'SELECT body FROM notes' },
      })) as { structuredContent?: { execution?: { execution?: { rows: unknown[] } } } };
      expect(r.structuredContent?.execution?.execution?.rows).toEqual([{ body: 'hello' }]);
    } finally {
      await client.close();
    }
  });
});

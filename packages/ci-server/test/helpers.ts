// Test helpers: a control plane on a throwaway data directory, on SQLite or on a fresh PostgreSQL database.
import { tempDir } from '@app/kit/testing';
import { type CiServer, createCiServer, loadCiSettings } from '../src/index.js';

export async function startTestCiServer(env: Record<string, string> = {}): Promise<CiServer> {
  const settings = loadCiSettings({
    CI_DATA_DIR: tempDir('ci-data-'),
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: 'test-agent-token',
    CI_SECRET_KEY: '0'.repeat(64),
    ...env,
  });
  return createCiServer(settings, { logger: false });
}

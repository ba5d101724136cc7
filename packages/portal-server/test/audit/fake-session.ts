// A SessionReader for route tests: `x-test-user: admin:alice` (role:username) is the session; no header, none.
import { createApp } from '@app/kit';
import type { SessionReader } from '../../src/http/connections.js';

export const fakeSessions: SessionReader = async (request) => {
  const raw = request.headers['x-test-user'];
  if (typeof raw !== 'string') return undefined;
  const [role, username] = raw.split(':');
  if ((role !== 'admin' && role !== 'user') || !username) return undefined;
  return { role, username };
};

export function testApp() {
  return createApp({ service: 'database-portal', errorShape: 'portal', logger: false });
}

export const as = (who: string) => ({ 'x-test-user': who });

// The portal publishes an OpenAPI description of its routes, without a session.
import { describe, expect, it } from 'vitest';
import { portal } from './auth/helpers.js';

describe('GET /api/openapi.json', () => {
  it('describes the portal routes with the service version', async () => {
    const server = await portal();
    try {
      const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.version).toBe('0.14.1');
      for (const path of [
        '/api/db/query',
        '/api/db/export',
        '/api/auth/login',
        '/api/approvals/{id}/decision',
        '/api/v1/executions',
      ]) {
        expect(Object.keys(doc.paths), path).toContain(path);
      }
    } finally {
      await server.close();
    }
  });
});

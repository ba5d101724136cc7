// The CI's OpenAPI description as outside tools see it: @apidevtools/swagger-parser validates it, Redocly's
// recommended rules report no error, every protected operation documents 401 and 403 with the error body,
// and real answers of every status this test provokes (200, 201, 202, 204, 400, 401, 403, 404, 409) match
// the schema the description gives for them (ajv).
import {
  type LintReport,
  lintOpenApi,
  protectedWithoutAuthErrors,
  ResponseRecorder,
} from '@app/kit/testing/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { BUILD_PIPELINE, bundle } from '../api-helpers.js';
import {
  ADMIN_PASSWORD,
  asSession,
  asToken,
  createToken,
  createUser,
  login,
  startAuthServer,
} from '../auth/helpers.js';

describe('the CI OpenAPI description with outside tools', () => {
  let server: CiServer;
  let doc: Record<string, any>;
  beforeAll(async () => {
    server = await startAuthServer();
    doc = (await server.app.inject({ url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => server?.close());

  it('passes swagger-parser and Redocly recommended without errors', async () => {
    const report: LintReport = await lintOpenApi(doc);
    expect(report.swaggerParser).toBeUndefined();
    expect(report.redoclyErrors).toEqual([]);
    // No query parameter is a schema keyword turned into a name (a `Type.Record` querystring did that).
    const callback = doc.paths['/auth/callback/{provider}'].get.parameters.map((p: any) => p.name);
    expect(callback).not.toContain('additionalProperties');
    expect(callback).toEqual(expect.arrayContaining(['code', 'state']));
  });

  it('documents 401 and 403 with the error body on every protected operation', () => {
    expect(protectedWithoutAuthErrors(doc)).toEqual([]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/runs'].get.security).toEqual([{ session: [] }, { bearer: [] }]);
  });

  it('real answers of every status match the described schemas', async () => {
    const recorder = new ResponseRecorder(server.app, doc);
    const call = recorder.call.bind(recorder);
    const admin = asSession(await login(server, 'admin', ADMIN_PASSWORD));
    const token = asToken((await createToken(server, admin, 'openapi-check')).secret);
    await createUser(server, admin, 'viewer1', 'viewer');
    const viewer = asSession(await login(server, 'viewer1', 'viewer1-password-123'));

    await call('GET', '/healthz');
    await call('GET', '/version');
    await call('GET', '/api/v1/me', token);
    await call('GET', '/api/v1/runs'); // 401
    await call('GET', '/api/v1/runs?limit=0', token); // 400
    const applied = await call('POST', '/api/v1/projects/apply', token, {
      yaml: bundle('shop', [BUILD_PIPELINE]),
    });
    expect(applied.statusCode).toBeLessThan(300);
    await call('POST', '/api/v1/projects/apply', viewer, { yaml: bundle('shop', [BUILD_PIPELINE]) }); // 403
    await call('GET', '/api/v1/projects', token);
    const project = (await call('GET', '/api/v1/projects/shop', token)).json();
    await call('GET', '/api/v1/projects/nope', token); // 404
    const pipelineId = project.pipelines[0].id;
    const run = (await call('POST', `/api/v1/pipelines/${pipelineId}/trigger`, token)).json(); // 201
    await call('GET', `/api/v1/runs/${run.run_id}`, token);
    await call('GET', '/api/v1/runs?limit=5', token);
    await call('POST', `/api/v1/runs/${run.run_id}/cancel`, token); // 202
    await call('POST', `/api/v1/runs/${run.run_id}/cancel`, token); // 409
    await call('GET', `/api/v1/runs/${run.run_id}/logs/stream`, { ...token, 'last-event-id': '0' }); // 204
    await call('POST', '/api/v1/projects/shop/secrets', token, { name: 'API_KEY', value: 's3cret' });
    await call('GET', '/api/v1/projects/shop/secrets', token);
    await call('DELETE', '/api/v1/projects/shop/secrets/API_KEY', token);
    await call('GET', '/api/v1/account/api-tokens', token);
    await call('GET', '/api/v1/admin/retention', token);

    expect(recorder.problems).toEqual([]);
    expect(recorder.sortedStatuses()).toEqual([200, 201, 202, 204, 400, 401, 403, 404, 409]);
  });
});

// Messages that say what is wrong: a trigger parameter with a non-string value names the parameter and the
// type it must have (not "unknown field"), an unknown field is still called one, and a 415 names the body
// types the route accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { applyAndGetPipelines, BUILD_PIPELINE, type Client, client, startApiServer } from '../api-helpers.js';

describe('messages that say what is wrong', () => {
  let server: CiServer;
  let api: Client;
  let build: string;
  beforeAll(async () => {
    server = await startApiServer('sqlite');
    api = client(server);
    build = (await applyAndGetPipelines(api, 'shop', [BUILD_PIPELINE])).build;
  });
  afterAll(async () => server?.close());

  it('a trigger parameter that is not a string is reported as such', async () => {
    const number = await api.post(`/api/v1/pipelines/${build}/trigger`, { parameters: { N: 5 } });
    expect(number.status).toBe(400);
    expect(number.body.error).toBe('Invalid request: body field parameters.N must be string');
    const flag = await api.post(`/api/v1/pipelines/${build}/trigger`, { parameters: { TARGET: true } });
    expect(flag.body.error).toBe('Invalid request: body field parameters.TARGET must be string');
    // An unknown field is still called one.
    const unknown = await api.post(`/api/v1/pipelines/${build}/trigger`, { paramters: { N: '5' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Invalid request: the body has an unknown field "paramters"');
  });

  it('a 415 names what the route accepts', async () => {
    const form = await api.post(`/api/v1/pipelines/${build}/trigger`, 'N=5', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect(form.body.error).toBe(
      'Unsupported content type "application/x-www-form-urlencoded": send application/json',
    );
    const apply = await api.post('/api/v1/projects/apply', 'project: {}', { 'content-type': 'text/yaml' });
    expect(apply.status).toBe(415);
    expect(apply.body.error).toBe(
      'Unsupported content type "text/yaml": send application/json or multipart/form-data',
    );
  });
});

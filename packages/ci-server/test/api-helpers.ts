// Helpers for the core API tests: a control plane (auth off, so the open authorizer acts as admin) on a
// fresh SQLite file or a fresh PostgreSQL database, a small JSON client over `app.inject`, and bundles.
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { inject } from 'vitest';
import type { CiServer } from '../src/index.js';
import { startTestCiServer } from './helpers.js';

export type StoreKind = 'sqlite' | 'postgres';
export const STORES: StoreKind[] = ['sqlite', 'postgres'];

export async function startApiServer(kind: StoreKind): Promise<CiServer> {
  const url =
    kind === 'sqlite'
      ? `sqlite:${tempDir('ci-api-')}/ci.db`
      : await createPostgresDatabase(inject('services').postgresUrl, 'ci_api');
  return startTestCiServer({ CI_DATABASE_URL: url, CI_AUTH_ENABLED: 'false' });
}

export interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

export function client(server: CiServer) {
  const call = async (
    method: string,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      ...(payload === undefined
        ? {}
        : typeof payload === 'string' || Buffer.isBuffer(payload)
          ? { payload, headers }
          : {
              payload: JSON.stringify(payload),
              headers: { 'content-type': 'application/json', ...headers },
            }),
    });
    const type = String(res.headers['content-type'] ?? '');
    return {
      status: res.statusCode,
      body: type.includes('json') ? res.json() : res.body,
      headers: res.headers,
    } as Answer;
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('POST', url, payload, headers),
    delete: (url: string) => call('DELETE', url),
    call,
    apply: (yaml: string) => call('POST', '/api/v1/projects/apply', { yaml }),
  };
}

export type Client = ReturnType<typeof client>;

/** A multipart body: text fields and file parts. */
export function multipart(
  fields: Record<string, string>,
  files: { field?: string; name: string; text: string | Buffer }[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'files'}"; filename="${f.name}"\r\n` +
          'Content-Type: application/yaml\r\n\r\n',
      ),
      Buffer.isBuffer(f.text) ? f.text : Buffer.from(f.text),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Pipeline documents used across the tests, each standing alone (multipart files) and in a bundle. */
export const BUILD_PIPELINE = `name: build
materials:
  - git:
      url: https://git.example.com/org/shop.git
      branch: main
parameters:
  TARGET: staging
  LEVEL: "1"
stages: [build, test]
jobs:
  compile:
    stage: build
    script: [make]
  unit:
    stage: test
    script: [make test]
    matrix:
      NODE: ["20", "22"]
`;

export const DEPLOY_PIPELINE = `name: deploy
materials:
  - upstream:
      pipeline: build
      stage: test
stages: [gate, ship]
jobs:
  approve:
    stage: gate
    approval:
      description: Ship it?
  ship:
    stage: ship
    script: [./ship.sh]
`;

const indent = (doc: string) =>
  doc
    .trimEnd()
    .split('\n')
    .map((line, i) => (i === 0 ? `  - ${line}` : `    ${line}`))
    .join('\n');

/** A JSON-variant bundle of `docs` for project `slug`. */
export function bundle(slug: string, docs: string[], name = 'Shop', description?: string): string {
  const head = `project:\n  slug: ${slug}\n  name: ${name}\n${description === undefined ? '' : `  description: ${description}\n`}`;
  return `${head}pipelines:\n${docs.map(indent).join('\n')}\n`;
}

/** Applies a bundle and returns the project's pipelines by name. */
export async function applyAndGetPipelines(api: Client, slug: string, docs: string[]) {
  const res = await api.apply(bundle(slug, docs));
  if (res.status !== 200) throw new Error(`apply failed: ${res.status} ${JSON.stringify(res.body)}`);
  const detail = await api.get(`/api/v1/projects/${slug}`);
  return Object.fromEntries(detail.body.pipelines.map((p: { name: string; id: string }) => [p.name, p.id]));
}

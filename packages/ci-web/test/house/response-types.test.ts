// House rule: ci-web types what the control plane answers from the generated API types (@app/web-kit/api/ci,
// `npm run gen:api -w packages/web-kit`), never by hand. A call that reads its answer names its route
// (`apiGet`/`apiPost`/`apiPut`/`apiDelete`, src/api/client.ts) and gets that route's answer; a call where the
// caller states the answer's type itself (`api.get<T>(…)`, `client.request<T>(…)`) and a bare `fetch(` are
// kept to the places listed here, each with its reason, so a new hand-typed answer fails here.
import { fileURLToPath } from 'node:url';
import { linesMatching, sourceTexts, unneededExceptions } from '@app/kit/testing/source-rules';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Files that may pass an answer's type themselves. */
const TYPED_BY_CALLER = new Set([
  'api/client.ts', // the client's plumbing: the untyped calls pass `unknown`, the typed ones their route's answer
]);

/** Files that may call `fetch(` themselves: answers that are not the API's JSON. */
const OWN_FETCH = new Set([
  'pages/ApplyPage.tsx', // the pipeline bundle's JSON Schema for the editor, a document rather than an answer
]);

const files = sourceTexts(SRC);

/** `api.get<…>(`, `.post<…>(` on a line of its own, `request<…>(` — but not a generic's declaration. */
const CALLER_TYPED = /(?:\bapi\s*)?\.(?:get|post|put|patch|del|request)<|\brequest<(?!T>\()/;
const BARE_FETCH = /(?<![\w.])fetch\(/;

describe('ci-web response types', () => {
  it('recognises a hand-typed call and a bare fetch, and lets typed calls through', () => {
    expect(CALLER_TYPED.test("api.get<{ projects: Project[] }>('/api/v1/projects')")).toBe(true);
    expect(CALLER_TYPED.test('        .post<ServiceAccountToken>(`/api/v1/admin/x`, body)')).toBe(true);
    expect(CALLER_TYPED.test("await request<User>('/api/v1/me')")).toBe(true);
    expect(CALLER_TYPED.test("apiGet('/api/v1/projects/{slug}', { params: { slug } })")).toBe(false);
    expect(CALLER_TYPED.test("api.del('/api/v1/admin/storage')")).toBe(false);
    expect(BARE_FETCH.test("fetch(SCHEMA, { credentials: 'include' })")).toBe(true);
    expect(BARE_FETCH.test('void query.refetch()')).toBe(false);
  });

  it('types every answer from its route, but in the listed files', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(linesMatching(files, CALLER_TYPED, TYPED_BY_CALLER)).toEqual([]);
    expect(linesMatching(files, BARE_FETCH, OWN_FETCH)).toEqual([]);
  });

  it('keeps the allow-lists honest: each listed file still needs its exception', () => {
    expect(unneededExceptions(files, CALLER_TYPED, TYPED_BY_CALLER)).toEqual([]);
    expect(unneededExceptions(files, BARE_FETCH, OWN_FETCH)).toEqual([]);
  });

  it('hand-writes no answer in api/types.ts: its object shapes are generated aliases', () => {
    const types = files.find((f) => f.name === 'api/types.ts')?.text ?? '';
    const handWritten = [...types.matchAll(/^export (?:interface (\w+)|type (\w+) = \{)/gm)].map(
      (m) => m[1] ?? m[2],
    );
    expect(handWritten).toEqual([]);
    expect(types).toMatch(/from '@app\/web-kit\/api\/ci'/);
  });
});

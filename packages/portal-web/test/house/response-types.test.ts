// House rule: portal-web types what the server answers from the generated API types (@app/web-kit/api/portal,
// `npm run gen:api -w packages/web-kit`), never by hand. A call names its route (`apiGet`/`apiPost`/…) and
// gets that route's answer; `api<T>(…)`, where the caller states the answer's type itself, and a bare
// `fetch(` are kept to the places listed here, each with its reason, so a new hand-typed answer fails here.
import { fileURLToPath } from 'node:url';
import { linesMatching, sourceTexts, unneededExceptions } from '@app/kit/testing/source-rules';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Files that may still call `api<T>(…)`: the type they pass is a generated alias of lib/types.ts. */
const TYPED_BY_CALLER = new Set<string>([]);

/** Files that may call `fetch(` themselves: answers that are not one JSON body. */
const OWN_FETCH = new Set([
  'lib/api.ts', // the API client itself and raw file downloads
  'ai/AgentPanel.tsx', // text/event-stream of an agent run
  'table/importUpload.ts', // multipart upload answered by a preview, then an NDJSON stream
]);

/** The hand-written shapes lib/types.ts may export: the UI's own, not answers. */
const OWN_SHAPES = ['Connection'];

const files = sourceTexts(SRC);

const CALLER_TYPED = /\bapi<(?!T>\()/;
const BARE_FETCH = /(?<![\w.])fetch\(/;

describe('portal-web response types', () => {
  it('recognises a hand-typed call and a bare fetch, and lets typed calls through', () => {
    expect(CALLER_TYPED.test("await api<{ run: Run }>('/api/admin/seed-data/run')")).toBe(true);
    expect(CALLER_TYPED.test("await apiPost('/api/admin/seed-data/run', body)")).toBe(false);
    expect(CALLER_TYPED.test('export async function api<T>(path: string)')).toBe(false);
    expect(BARE_FETCH.test("const res = await fetch('/api/agent/runs')")).toBe(true);
    expect(BARE_FETCH.test('void page.refetch()')).toBe(false);
  });

  it('types every answer from its route, but in the listed files', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(linesMatching(files, CALLER_TYPED, TYPED_BY_CALLER)).toEqual([]);
    expect(linesMatching(files, BARE_FETCH, OWN_FETCH)).toEqual([]);
  });

  it('keeps the allow-lists honest: each listed file still needs its exception', () => {
    expect(unneededExceptions(files, CALLER_TYPED, TYPED_BY_CALLER)).toEqual([]);
    expect(unneededExceptions(files, BARE_FETCH, OWN_FETCH)).toEqual([]);
  });

  it('hand-writes in lib/types.ts only the UI’s own shapes; the answers there are generated', () => {
    const types = files.find((f) => f.name === 'lib/types.ts')?.text ?? '';
    const handWritten = [...types.matchAll(/^export (?:interface (\w+)|type (\w+) = \{)/gm)].map(
      (m) => m[1] ?? m[2],
    );
    expect(handWritten).toEqual(OWN_SHAPES);
    expect(types).toMatch(/from '@app\/web-kit\/api\/portal'/);
  });
});

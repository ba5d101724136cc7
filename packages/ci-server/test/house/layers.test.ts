// The house rule of the control plane's source, checked on the files themselves: arrows point down the layer
// table (layer-table.ts, printed by docs/architecture.md; no module outside http/ imports from http/, except
// the composition root server.ts and the types of what it answers, server-api.ts), and
// routes reach the database only through store/ and services/ functions, never with a query of their own;
// store/ depends on nothing of the control plane but the pure rules in domain/.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  folderGraph,
  importGraph,
  importsInto,
  importsOf,
  layerLine,
  layerViolations,
  sourceFiles,
} from '@app/kit/testing';
import { describe, expect, it } from 'vitest';
import { CI_LAYERS } from './layer-table.js';

const SRC = join(import.meta.dirname, '../../src');

describe('layers of packages/ci-server/src', () => {
  it('no module outside http/ imports from http/ (server.ts composes them; server-api.ts types it)', () => {
    const folders = new Set(sourceFiles(SRC).map((f) => relative(SRC, f).split('/')[0]));
    for (const folder of ['auth', 'agents', 'domain', 'store', 'plugins', 'retention', 'blobs'])
      expect(folders.has(folder)).toBe(true);
    expect(importsInto(SRC, 'http', ['server.ts', 'server-api.ts'])).toEqual([]);
  });

  it('no http/ module queries the database itself (store/ and services/ hold the SQL)', () => {
    // Kysely's query builders, transactions and raw `sql` templates; pingDatabase (health) is kit's.
    const query =
      /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|transaction)\(|\bsql`|import\s*\{[^}]*\bsql\b[^}]*\}\s*from\s*'kysely'/;
    const offenders = sourceFiles(join(SRC, 'http'))
      .filter((file) => query.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
    // The check itself finds a query when there is one.
    expect(query.test("await db.selectFrom('runs').selectAll()")).toBe(true);
    expect(query.test('await sql`select 1`.execute(db)')).toBe(true);
  });

  it('store/ imports nothing of the control plane but domain/ (the pure rules) and itself', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(join(SRC, 'store'))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = relative(SRC, join(file, '..', spec));
        if (!target.startsWith('store/') && !target.startsWith('domain/'))
          offenders.push(`${relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('every import points down the layer table, and every folder is in it', () => {
    expect(layerViolations(folderGraph(importGraph(SRC)), CI_LAYERS)).toEqual([]);
  });

  it('docs/architecture.md prints the table', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../../docs/architecture.md'), 'utf8');
    expect(doc).toContain(layerLine(CI_LAYERS));
  });
});

// What the portal loads before its first answer, read from the sources: the static value imports reachable
// from src/main.ts (type-only imports are erased; `import()` is deferred to first use). The stacks the start
// deliberately leaves for later (docs/portal-runtime.md) must not come back through a static import — an
// engine descriptor importing its client for a constant, a route file importing an SDK at the top.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { moduleFile, typeOnly } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../src');

/** Packages loaded on first use only: each costs 15–35 MB or a few hundred ms at start. */
const DEFERRED = [
  'ai',
  '@ai-sdk/',
  'ollama-ai-provider-v2',
  '@modelcontextprotocol/sdk',
  'zod',
  '@faker-js/faker',
  'undici',
  'openid-client',
  // engine drivers and parsers (loaded by the engine's first connection or parse)
  'pg',
  'mysql2',
  'mssql',
  'oracledb',
  'mongodb',
  'cassandra-driver',
  '@duckdb/node-api',
  '@libsql/client',
  'classic-level',
  'ioredis',
  '@aws-sdk/',
  '@clickhouse/client',
  'libpg-query',
  'node-sql-parser',
  'ssh2',
];

const STATIC =
  /(?:^|\n)\s*(?:import|export)\s+([^'";]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** Every package reached by static value imports from `entry`, with the source file that imports it. */
function staticPackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC)) {
      if (m[1] !== undefined && typeOnly(m[1])) continue;
      const spec = m[2] ?? m[3];
      if (spec.startsWith('.')) {
        const target = moduleFile(file, spec);
        if (target) walk(target);
      } else if (!spec.startsWith('node:') && !spec.startsWith('@app/')) {
        if (!packages.has(spec)) packages.set(spec, relative(SRC, file));
      }
    }
  };
  walk(entry);
  return packages;
}

const deferred = (spec: string) =>
  DEFERRED.some((d) => (d.endsWith('/') ? spec.startsWith(d) : spec === d || spec.startsWith(`${d}/`)));

describe('what the portal loads at start', () => {
  it('reads the graph: the entry reaches the store and the YAML parser, and an SDK file reaches its SDK', () => {
    const atStart = staticPackages(join(SRC, 'main.ts'));
    expect(atStart.has('kysely')).toBe(true);
    expect(atStart.has('yaml')).toBe(true);
    // the walk would notice a deferred stack: the AI client file imports the SDK statically
    expect([...staticPackages(join(SRC, 'ai/client.ts')).keys()].filter(deferred)).toContain('ai');
  });

  it('no deferred stack or engine driver is a static import reachable from src/main.ts', () => {
    const offenders = [...staticPackages(join(SRC, 'main.ts'))]
      .filter(([spec]) => deferred(spec))
      .map(([spec, file]) => `${spec} (from ${file})`);
    expect(offenders).toEqual([]);
  });
});

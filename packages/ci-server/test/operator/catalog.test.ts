// The plugin catalog loader on its own: what a malformed manifest file logs, and the order of overrides.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PLUGINS } from '../../src/plugins/builtin.js';
import { loadPluginCatalog, MAX_MANIFEST_BYTES, manifestDirs } from '../../src/plugins/catalog.js';

function collectingLog() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, warn: (obj: object, msg: string) => void lines.push({ obj: obj as never, msg }) };
}

describe('plugin catalog', () => {
  it('is the built-in manifests without configuration', () => {
    const log = collectingLog();
    const catalog = loadPluginCatalog([], log);
    expect(catalog.map((p) => p.name)).toEqual([...BUILTIN_PLUGINS.map((p) => p.name)].sort());
    expect(catalog.every((p) => p.source === 'builtin')).toBe(true);
    expect(log.lines).toEqual([]);
  });

  it('logs and skips malformed files and missing folders, later files winning', () => {
    const dir = tempDir('ci-manifests-');
    writeFileSync(
      join(dir, 'a.yaml'),
      'name: x\nversion: "1"\nkind: task\ndescription: one\nconfig_schema: {}\n',
    );
    writeFileSync(
      join(dir, 'b.yaml'),
      'name: x\nversion: "2"\nkind: task\ndescription: two\nconfig_schema: {}\n',
    );
    writeFileSync(join(dir, 'c.json'), '{"name": "y",');
    writeFileSync(
      join(dir, 'd.yaml'),
      'name: Bad Name\nversion: "1"\nkind: task\ndescription: d\nconfig_schema: {}\n',
    );
    writeFileSync(join(dir, 'e.yaml'), `# ${'x'.repeat(MAX_MANIFEST_BYTES)}\n`);
    const missing = join(dir, 'nope');
    const nested = join(dir, 'nested.yaml');
    mkdirSync(nested);
    const log = collectingLog();
    const catalog = loadPluginCatalog([dir, missing], log);
    expect(catalog.find((p) => p.name === 'x')).toMatchObject({
      version: '2',
      description: 'two',
      source: 'config',
    });
    expect(catalog.some((p) => p.name === 'y')).toBe(false);
    const skipped = log.lines.map((l) => l.obj.file ?? l.obj.dir);
    expect(skipped).toEqual([join(dir, 'c.json'), join(dir, 'd.yaml'), join(dir, 'e.yaml'), nested, missing]);
    expect(log.lines.every((l) => typeof l.obj.err === 'string')).toBe(true);
  });

  it('reads manifest_dirs as a list or one string', () => {
    expect(manifestDirs({ plugins: { manifest_dirs: '/a' } })).toEqual(['/a']);
    expect(manifestDirs({ plugins: { manifest_dirs: ['/a', 3, '/b'] } })).toEqual(['/a', '/b']);
    expect(manifestDirs({})).toEqual([]);
  });
});

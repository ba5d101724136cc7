// Vite plugin of both web UIs: after the bundle is written, every text asset over 1 KiB gets a brotli (`.br`)
// and a gzip (`.gz`) sibling, so the servers hand out pre-compressed files (@fastify/static `preCompressed`)
// without spending CPU per request. Brotli at quality 9: close to the maximum ratio on JavaScript at a small
// fraction of quality 11's build time (Monaco's bundles are megabytes).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|mjs|css|html|svg|json|txt|map|wasm|ttf|woff)$/i;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Writes `.br` and `.gz` next to each compressible file of `dir`; answers how many files were compressed. */
export function precompressDir(dir: string): number {
  let count = 0;
  for (const file of files(dir)) {
    if (!TEXT.test(file) || statSync(file).size < MIN_BYTES) continue;
    const body = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    count++;
  }
  return count;
}

/** The plugin: runs once the build has written its output directory. */
export function precompress(): {
  name: string;
  apply: 'build';
  writeBundle(options: { dir?: string }): void;
} {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options) {
      if (options.dir) precompressDir(options.dir);
    },
  };
}

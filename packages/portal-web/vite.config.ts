// Vite build of the portal's single-page app: React, everything bundled (no CDN), output in dist/ that
// portal-server serves (src/http/web.ts). `npm run dev` proxies the API to a portal on :3000.
// Monaco, the ER diagram and charts are separate chunks loaded on first use, so the first page stays light.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const require = createRequire(import.meta.url);
// monaco-editor's `exports` map only exposes .js files; its stylesheets are reached through this alias.
const monacoEsm = dirname(dirname(require.resolve('monaco-editor/editor/editor.api.js')));

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: { alias: [{ find: /^monaco-esm\//, replacement: `${monacoEsm}/` }] },
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 4000 },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

// Vite build of the portal's single-page app: React, everything bundled (no CDN), output in dist/ that
// portal-server serves (src/http/web.ts). `npm run dev` proxies the API to a portal on :3000.
// Monaco, the ER diagram and charts are separate chunks loaded on first use, so the first page stays light;
// the web kit's settings make Monaco's workers ES modules. Assets are pre-compressed (.br, .gz) at build.
import { webKitVite } from '@app/web-kit/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, mergeConfig } from 'vite';
import { precompress } from '../web-kit/build/precompress.ts';

export default mergeConfig(
  webKitVite(),
  defineConfig({
    base: '/',
    plugins: [react(), precompress()],
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 4096 },
    server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  }),
);

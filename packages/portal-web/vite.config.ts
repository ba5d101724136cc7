// Vite build of the portal's single-page app: React, everything bundled (no CDN), output in dist/ that
// portal-server serves (src/http/web.ts). `npm run dev` proxies the API to a portal on :3000.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../web-kit/build/precompress.ts';

export default defineConfig({
  base: '/',
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 800 },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

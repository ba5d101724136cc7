// Vite build of the CI web UI: a single-page app served by ci-server from dist/ (assets under /assets/ with
// hashed names, so the server can cache them for a year). `npm run dev` proxies the API to a local server.
import { webKitVite } from '@app/web-kit/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, mergeConfig } from 'vite';

const api = process.env.CI_URL ?? 'http://127.0.0.1:8153';

export default mergeConfig(
  webKitVite(),
  defineConfig({
    base: '/',
    plugins: [react()],
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 4096 },
    server: { proxy: { '/api': api, '/auth': api } },
  }),
);

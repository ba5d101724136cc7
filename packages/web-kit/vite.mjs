// Vite settings every app using the web kit needs (`import { webKitVite } from '@app/web-kit/vite'`), in
// plain JavaScript so Vite can load it from its config without compiling: Monaco's workers are ES modules.
// (monaco-editor is held at 0.52 by the root package.json's `overrides`: monaco-yaml 5 and its worker
// manager use the worker API that 0.53+ replaced, and 0.57's `exports` map hides the `esm/vs/` paths.)

/** @returns {import('vite').UserConfig} */
export function webKitVite() {
  return { worker: { format: 'es' } };
}

// GET /api/v1/plugins: the plugin catalog loaded at server start (plugins/catalog.ts). Read-only.
import { Type } from 'typebox';
import type { CatalogEntry } from '../plugins/manifest.js';
import { CatalogEntrySchema } from '../plugins/manifest.js';
import type { Api } from './context.js';

export function registerPluginRoutes(api: Api, catalog: readonly CatalogEntry[]): void {
  api.get('/api/v1/plugins', {
    config: { access: 'viewer' },
    schema: {
      tags: ['plugins'],
      summary: 'The plugin catalog',
      description:
        'Built-in manifests (`git` and `cron` materials, `junit` test reports, `artifacts`, `cache`) merged ' +
        'with the manifests found at server start in the folders of CI_CONFIG `plugins.manifest_dirs` ' +
        '(`.yaml`, `.yml` or `.json`, each one manifest or an array; folders in the order given, files by ' +
        'name). A later manifest with the same name replaces an earlier one, a built-in included; a malformed ' +
        'file is logged and skipped. Sorted by name. Changes to the folders apply at the next start.',
      response: { 200: Type.Object({ plugins: Type.Array(CatalogEntrySchema) }) },
    },
    handler: async () => ({ plugins: [...catalog] }),
  });
}

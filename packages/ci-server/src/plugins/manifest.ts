// The shape of a plugin manifest, as a TypeBox schema: it validates the manifest files named by CI_CONFIG
// and describes the catalog in the OpenAPI description.
import { type Static, Type } from 'typebox';

export const PLUGIN_KINDS = ['material', 'task', 'test-report', 'artifact', 'cache', 'notifier'] as const;

export const PluginManifestSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,63}$', description: 'unique in the catalog' }),
    version: Type.String({ minLength: 1, maxLength: 64 }),
    kind: Type.Enum([...PLUGIN_KINDS]),
    description: Type.String({ maxLength: 2000 }),
    config_schema: Type.Record(Type.String(), Type.Unknown(), {
      description: 'JSON Schema of the configuration the plugin takes',
    }),
  },
  { additionalProperties: false },
);

export type PluginManifest = Static<typeof PluginManifestSchema>;

export const CatalogEntrySchema = Type.Object({
  ...PluginManifestSchema.properties,
  source: Type.Enum(['builtin', 'config'], {
    description: '`builtin`, or `config` when a manifest file from `plugins.manifest_dirs` supplied it',
  }),
});

export type CatalogEntry = Static<typeof CatalogEntrySchema>;

// The portal server's layers, top to bottom, as test/house/layers.test.ts enforces them and docs/architecture.md
// prints them: a folder (or top-level file) imports only folders of lower rows, never one beside or above it.
// The composition root (server.ts) builds the long-lived parts; storage/ sits at the bottom because every
// layer reaches it through the interfaces server.ts passes in, never by importing it.
import type { LayerTable } from '@app/kit/testing';

export const PORTAL_LAYERS: LayerTable = [
  ['index.ts', 'main.ts'],
  ['server.ts'],
  ['http'],
  ['mcp'],
  ['agent'],
  ['bot', 'provisioning'],
  ['ai', 'execution', 'import', 'seed'],
  ['governance'],
  ['datasources'],
  ['providers'],
  ['sql', 'storage', 'audit', 'auth', 'chat', 'bootstrap.ts', 'config.ts', 'version.ts'],
];

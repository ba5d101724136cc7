// The control plane's layers, top to bottom, as test/house/layers.test.ts enforces them and
// docs/architecture.md prints them: a folder (or top-level file) imports only folders of lower rows, never one
// beside or above it. agents/ is the gRPC face over dispatch/; services/ (apply, runs, execution data) sits
// under the two feature folders that start and finish runs (dispatch/, triggers/) and over the data folders;
// events/ (run events) sits at the bottom beside store/, importing only domain/.
import type { LayerTable } from '@app/kit/testing';

export const CI_LAYERS: LayerTable = [
  ['index.ts', 'main.ts'],
  ['server.ts', 'server-api.ts'],
  ['http'],
  ['agents'],
  ['dispatch', 'triggers'],
  ['services'],
  ['artifacts', 'logs', 'reports', 'notifications', 'auth', 'id-tokens'],
  ['retention', 'blobs'],
  ['store', 'events'],
  ['domain', 'replicas', 'scm', 'plugins', 'metrics.ts', 'config.ts', 'bootstrap.ts', 'version.ts'],
];

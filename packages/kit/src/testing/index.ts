// Test helpers: real servers, isolated databases, temporary directories.
export * from './databases.js';
export type { TestServices } from './global-setup.js';
export {
  cycles,
  folderGraph,
  type ImportGraph,
  importGraph,
  type LayerTable,
  layerLine,
  layerViolations,
} from './import-graph.js';
export { filesOver, importsInto, importsOf, moduleFile, sourceFiles, typeOnly } from './layers.js';
export * from './processes.js';
export * from './promtool.js';
export * from './servers.js';
export { serviceArgs } from './service-command.js';
export { tempDir } from './temp.js';

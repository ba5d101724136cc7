// Test helpers: real servers, isolated databases, temporary directories.
export * from './databases.js';
export * from './processes.js';
export * from './servers.js';
export type { TestServices } from './global-setup.js';
export { tempDir } from './temp.js';

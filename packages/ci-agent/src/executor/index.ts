// The agent's job executor: everything that runs a job on this machine, independent of the wire protocol.
export * from './artifacts.js';
export * from './cache.js';
export * from './cache-store.js';
export * from './checkout.js';
export * from './environment.js';
export * from './execute-job.js';
export * from './junit.js';
export * from './lines.js';
export * from './log.js';
export * from './masking.js';
export * from './process-group.js';
export * from './runner.js';
export * from './services.js';
export * from './workspace.js';

// The agent's job executor: everything that runs a job on this machine, independent of the wire protocol.

// The masker is kit's (shared with the control plane); re-exported for the agent's users and tests.
export { MASK, Masker, MIN_MASKED_LENGTH, secretForms } from '@app/kit';
export * from './artifacts.js';
export * from './cache.js';
export * from './cache-store.js';
export * from './checkout.js';
export * from './container-job.js';
export * from './engine.js';
export * from './environment.js';
export * from './execute-job.js';
export * from './junit.js';
export * from './launches.js';
export * from './lines.js';
export * from './log.js';
export * from './needed-artifacts.js';
export * from './podman.js';
export * from './process-group.js';
export * from './runner.js';
export * from './sandbox.js';
export * from './services.js';
export * from './workspace.js';

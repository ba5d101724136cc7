/**
 * The CI control plane's pure domain: bundle parsing and validation, its JSON Schema, durations, cron,
 * matrices, material fingerprints and the run state machine. No I/O anywhere below this file.
 */
export * from './bundle-parse.js';
export { ENV_NAME, NAME_MAX, SLUG } from './bundle-rules.js';
export * from './bundle-schema.js';
export * from './bundle-serialize.js';
export type * from './bundle-types.js';
export * from './concurrency.js';
export * from './cron.js';
export * from './durations.js';
export * from './fingerprint.js';
export { gateQuorum } from './gate-quorum.js';
export * from './gate-text.js';
export { withImplicitMaterial } from './implicit-material.js';
export * from './job-report-shortcut.js';
export * from './matrix.js';
export { jobOfRun, NOTIFY_STAGE, notifyIndex, notifyMatches } from './notifications.js';
export { cellKey, outputRefs, selectCell } from './output-refs.js';
export * from './repository-definition.js';
export * from './run-diff.js';
export * from './run-plan.js';
export * from './run-state.js';
export * from './run-types.js';
export * from './run-waiting.js';
export * from './stage-counts.js';
export * from './when-filter.js';
export { childPath, MAX_ERRORS } from './yaml-reader.js';

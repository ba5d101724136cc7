// Public surface of the shared toolkit. Neither service is imported from here.
export * from './app.js';
export * from './async-queue.js';
export * from './config.js';
export * from './crypto.js';
export * from './db.js';
export * from './db-unavailable.js';
export * from './files.js';
export * from './http-errors.js';
export * from './log-masker.js';
export * from './logger.js';
export * from './metrics.js';
export * from './net.js';
export * from './openapi-conventions.js';
export * from './secret-forms.js';
export * from './spool-file.js';

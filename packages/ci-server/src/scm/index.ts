// Inbound SCM webhooks, host by host: signatures, delivery ids, header redaction and payload parsing. Pure
// apart from hashing; the webhook service (src/triggers/webhooks.ts) turns a parsed delivery into runs.
export * from './hosts.js';
export * from './types.js';

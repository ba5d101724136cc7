// What tests may import from the agent.
export { type AgentSettings, loadAgentSettings } from './config.js';
export { AgentConnection, backoffMs, isTransient } from './connection.js';
export * from './executor/index.js';
export { GrpcCacheStore } from './grpc-cache-store.js';
export { GrpcArtifactUploader } from './grpc-uploader.js';
export { FileIdentityStore, IDENTITY_FILE, MemoryIdentityStore } from './identity-file.js';
export * from './job-spec.js';
export { type CourierCalls, LogCourier } from './log-courier.js';
export { DROPPED_NOTE, LogShipper, type ShippedLine } from './log-shipper.js';
export { type JobReportInit, type ReportCalls, ReportCourier } from './report-courier.js';
export { normalizeFingerprint, ServerCertificateError } from './server-trust.js';
export { courierOf, reportCourierOf, toJobAssignment, Worker } from './worker.js';

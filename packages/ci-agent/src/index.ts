// What tests may import from the agent.
export { type AgentSettings, loadAgentSettings } from './config.js';
export { AgentConnection, backoffMs } from './connection.js';
export * from './executor/index.js';
export * from './job-spec.js';

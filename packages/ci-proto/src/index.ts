// The agent protocol: messages and the AgentService descriptor generated from proto/ci/agent/v1/agent.proto
// by `npm run generate -w @app/ci-proto` (buf + protoc-gen-es). Regenerate after changing the .proto file.
export * from './gen/ci/agent/v1/agent_pb.js';

/** Header carrying the registration token on Register. */
export const AGENT_TOKEN_HEADER = 'authorization';
/** Header carrying the session id on every call after Register. */
export const AGENT_SESSION_HEADER = 'x-agent-session';

// The MCP endpoint `/mcp` (Streamable HTTP, stateless): served in the studio and agent roles, authenticated
// with a service token (`Authorization: Bearer pst_…`, 401 otherwise) and rate limited like a person under
// the token's own name, before any MCP message is read. POST carries JSON-RPC messages; with no sessions
// there is no server-initiated stream, so GET and DELETE answer 405. The MCP SDK and zod (~25 MB, ~0.3 s)
// are loaded by the first MCP call, not at start: most portals never receive one.
import { errorBody, HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { McpDeps } from '../mcp/server.js';
import type { ServiceTokenRepository } from '../storage/service-tokens.js';
import { checkedByHandler } from './request-input.js';
import { errorResponses, errorShape, JsonRpcMessage } from './response-schemas.js';
import { admitServiceToken } from './service-token-guard.js';

export interface McpRouteDeps {
  /** Undefined without server storage (no service token can exist): 503. */
  mcp: McpDeps | undefined;
  tokens: ServiceTokenRepository | undefined;
}

export function registerMcpRoutes(app: FastifyInstance, deps: McpRouteDeps): void {
  app.post(
    '/mcp',
    {
      bodyLimit: 1024 * 1024,
      schema: {
        tags: ['mcp'],
        summary: 'MCP endpoint (Streamable HTTP, service token)',
        description:
          'JSON-RPC over Streamable HTTP (stateless). Tools: list_datasources, list_objects, describe_object, run_read (governed read; writes refused), ' +
          'submit_write (through approvals like POST /api/v1/executions), get_execution. Every call is audited as `mcp_call`. 401 without a valid ' +
          "service token, 429 over the token's budget, 503 without server storage.",
        body: Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage)]),
        response: { 200: JsonRpcMessage, 202: JsonRpcMessage, ...errorResponses(401, 429, 503) },
      },
      // The MCP transport checks the JSON-RPC message itself and answers JSON-RPC errors.
      ...checkedByHandler,
    },
    async (request, reply) => {
      if (!deps.mcp || !deps.tokens)
        throw new HttpError(
          503,
          'MCP needs server storage (STORAGE_PROVIDER sqlite or postgres)',
          'STORAGE_UNAVAILABLE',
        );
      const token = await admitServiceToken(request, reply, deps.tokens);
      if (!token) return reply;
      const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
        import('../mcp/server.js'),
      ]);
      const server = createMcpServer(deps.mcp, token);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  const notAllowed = async (
    _request: unknown,
    reply: { code(n: number): { header(k: string, v: string): { send(b: unknown): unknown } } },
  ) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send(
        errorBody(
          'portal',
          405,
          'The MCP endpoint is stateless: POST JSON-RPC messages',
          'METHOD_NOT_ALLOWED',
        ),
      );
  app.get(
    '/mcp',
    {
      schema: {
        tags: ['mcp'],
        description: '405: no server-initiated stream (stateless endpoint).',
        response: { 405: errorShape },
      },
    },
    notAllowed,
  );
  app.delete(
    '/mcp',
    {
      schema: {
        tags: ['mcp'],
        description: '405: there are no sessions to end.',
        response: { 405: errorShape },
      },
    },
    notAllowed,
  );
}

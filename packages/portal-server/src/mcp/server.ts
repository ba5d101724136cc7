// The portal's MCP server (official `@modelcontextprotocol/sdk`): the tools one service token may call —
// list the datasources it may use, list and describe objects (hidden objects and masked columns left out),
// run a governed read, and submit a write that goes through approvals exactly like the bot API (it IS the
// bot API's submit: same policy, same reviewers, same audit). Every call is audited as `mcp_call` under the
// token's name. One server is built per request (the endpoint is stateless), so nothing leaks between
// tokens.
import { HttpError } from '@app/kit';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ExecutionAdapter } from '../agent/execution-adapter.js';
import { type BotContext, classifyFor, datasourceForToken, tokenPrincipal } from '../bot/context.js';
import { getForToken, submit } from '../bot/service.js';
import { toPublicRecord } from '../bot/types.js';
import type { ManagedEntry } from '../datasources/types.js';
import { toHttpError } from '../providers/errors.js';
import type { ServiceToken } from '../storage/service-tokens.js';

export interface McpDeps {
  bot: BotContext;
  adapter: ExecutionAdapter;
  datasources: { all(): ManagedEntry[] };
  version: string;
}

type ToolAnswer = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

function ok(value: Record<string, unknown>): ToolAnswer {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function failure(message: string, code: string): ToolAnswer {
  return { content: [{ type: 'text', text: JSON.stringify({ error: message, code }) }], isError: true };
}

const pathSchema = z.array(z.string().min(1).max(512)).max(4);
const idSchema = z.string().min(1).max(64);

export function createMcpServer(deps: McpDeps, token: ServiceToken): McpServer {
  const server = new McpServer({ name: 'database-portal', version: deps.version });
  const principal = tokenPrincipal(token);
  const actor = principal.username;

  /** Runs a tool body with its audit line; refusals become MCP tool errors in the portal's words. */
  const audited = async (
    tool: string,
    datasourceId: string | undefined,
    body: () => Promise<Record<string, unknown>>,
    extra: Record<string, unknown> = {},
  ): Promise<ToolAnswer> => {
    try {
      const value = await body();
      await deps.bot.audit.record({
        type: 'mcp_call',
        actor,
        connection: datasourceId ?? null,
        result: 'success',
        tool,
        ...extra,
      });
      return ok(value);
    } catch (err) {
      const e = toHttpError(err);
      await deps.bot.audit.record({
        type: 'mcp_call',
        actor,
        connection: datasourceId ?? null,
        result: 'failure',
        tool,
        code: e.code,
        status: e.statusCode,
        ...extra,
      });
      return failure(e.message, e.code ?? 'ERROR');
    }
  };

  /** The datasource as this token may use it (404 hidden or unknown, 403 off its allowlist, 503 unavailable). */
  const datasource = (id: string) => datasourceForToken(deps.bot, token, id);

  server.registerTool(
    'list_datasources',
    { description: 'Lists the managed datasources this service token may use.', inputSchema: {} },
    async () =>
      audited('list_datasources', undefined, async () => ({
        datasources: deps.datasources
          .all()
          .filter((e) => e.available && e.datasource.roles.includes(principal.role))
          .filter((e) => !token.datasources || token.datasources.includes(e.datasource.id))
          .map((e) => ({ id: e.datasource.id, name: e.datasource.name, type: e.datasource.type })),
      })),
  );

  server.registerTool(
    'list_objects',
    {
      description:
        'Lists tables, views and other objects of a datasource (or of one schema when path is given).',
      inputSchema: { datasourceId: idSchema, path: pathSchema.optional() },
    },
    async ({ datasourceId, path }) =>
      audited('list_objects', datasourceId, async () => {
        datasource(datasourceId);
        const objects = await deps.adapter.listObjects(principal, datasourceId, path);
        return { objects: objects.map((o) => ({ path: o.path, name: o.name, kind: o.kind })) };
      }),
  );

  server.registerTool(
    'describe_object',
    {
      description:
        'Describes one object (columns, indexes, foreign keys) by its path; masked columns are left out.',
      inputSchema: { datasourceId: idSchema, path: pathSchema.min(1) },
    },
    async ({ datasourceId, path }) =>
      audited('describe_object', datasourceId, async () => {
        datasource(datasourceId);
        return { ...(await deps.adapter.describe(principal, datasourceId, path)) };
      }),
  );

  server.registerTool(
    'run_read',
    {
      description:
        'Runs one reading statement through the datasource policy (masking, object rules, row limits). Writes are refused: use submit_write.',
      inputSchema: {
        datasourceId: idSchema,
        sql: z.string().min(1).max(32_000),
        onBehalfOf: z.string().min(1).max(320).optional().describe('the person the call is made for'),
      },
    },
    async ({ datasourceId, sql, onBehalfOf }) =>
      audited(
        'run_read',
        datasourceId,
        async () => {
          const ds = datasource(datasourceId);
          const { classification } = await classifyFor(ds, sql);
          if (classification.isWrite || classification.transactionControl)
            throw new HttpError(
              403,
              'run_read only reads: the server classifies this statement as a write; use submit_write',
              'READ_ONLY',
            );
          const answer = await submit(deps.bot, token, {
            datasourceId,
            statement: sql,
            onBehalfOf: onBehalfOf ?? actor,
          });
          return { httpStatus: answer.status, execution: toPublicRecord(answer.request) };
        },
        { statement: sql.slice(0, 2000) },
      ),
  );

  server.registerTool(
    'submit_write',
    {
      description:
        'Submits a statement that changes data. It goes through approvals exactly like the bot API: it runs at once only when no gate holds it; ' +
        'otherwise it waits for reviewers (status pending) and runs once approved.',
      inputSchema: {
        datasourceId: idSchema,
        sql: z.string().min(1).max(32_000),
        onBehalfOf: z.string().min(1).max(320).describe('the person the change is made for'),
        ticket: z.string().max(120).optional(),
        reviewReason: z
          .string()
          .min(1)
          .max(500)
          .optional()
          .describe('asks for review even where none is required'),
      },
    },
    async ({ datasourceId, sql, onBehalfOf, ticket, reviewReason }) =>
      audited(
        'submit_write',
        datasourceId,
        async () => {
          datasource(datasourceId);
          const answer = await submit(deps.bot, token, {
            datasourceId,
            statement: sql,
            onBehalfOf,
            ...(ticket ? { ticket } : {}),
            ...(reviewReason ? { review: { reason: reviewReason } } : {}),
          });
          return { httpStatus: answer.status, execution: toPublicRecord(answer.request) };
        },
        { statement: sql.slice(0, 2000) },
      ),
  );

  server.registerTool(
    'get_execution',
    {
      description: 'Reads a submitted request (its status, and its result once it ran).',
      inputSchema: { id: z.string().min(1).max(100) },
    },
    async ({ id }) =>
      audited('get_execution', undefined, async () => {
        return { execution: toPublicRecord(await getForToken(deps.bot, token, id)) };
      }),
  );

  return server;
}

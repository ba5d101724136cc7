// Response schemas of governance: approvals, audit, service tokens, the bot, fleet health and MCP messages
// (the rules every response schema follows are in http/response-schemas.ts).
import { Type } from 'typebox';
import { Any, NullableString, Open } from './response-shapes.js';

const ReviewerMark = Type.Object({ reviewer: Type.String(), at: Type.String() });
export const ApprovalStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
  Type.Literal('expired'),
  Type.Literal('withdrawn'),
]);
export const Approval = Open({
  id: Type.String(),
  datasourceId: Type.String(),
  datasourceName: Type.String(),
  requester: Type.String(),
  statement: Type.String(),
  route: Type.String(),
  status: ApprovalStatus,
  requestedAt: Type.String(),
  reviewer: Type.Optional(Type.String()),
  reviewedAt: Type.Optional(Type.String()),
  windowUntil: Type.Optional(Type.String()),
  guardrail: Type.Optional(Type.String()),
  dryRun: Type.Optional(
    Type.Array(
      Open(
        {
          statement: Type.Integer(),
          table: Type.String(),
          touched: Type.Integer(),
          total: Type.Integer(),
          reported: Type.Integer(),
          indirect: Type.Optional(Type.Boolean()),
          inserted: Type.Optional(Type.Integer()),
        },
        'Rows the held write touched in one table during its rolled-back dry run. `touched` counts existing rows updated or deleted of `total` before it ran; `reported` is what the engine reported for the statement (the approved run may report no more). `indirect`: a table the statement does not name, changed by triggers or ON DELETE/UPDATE CASCADE (counted on PostgreSQL only), with `inserted` its new rows',
      ),
    ),
  ),
  approvals: Type.Optional(Type.Array(ReviewerMark)),
  approvedBy: Type.Optional(Type.Array(ReviewerMark)),
  ticket: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
});
export const ApprovalList = Open({ approvals: Type.Array(Approval) });

export const ServiceToken = Open(
  {
    id: Type.String(),
    name: Type.String(),
    role: Type.String(),
    groups: Type.Array(Type.String()),
    datasources: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'null: every datasource the role may use',
    }),
    requireApproval: Type.Boolean(),
    trustedApprovals: Type.Boolean(),
    created_at: Type.String(),
    prefix: Type.String(),
    last_used_at: NullableString,
  },
  'A service token (never its secret or hash)',
);
export const ServiceTokenList = Open({ tokens: Type.Array(ServiceToken) });
export const ServiceTokenCreated = Open({
  token: ServiceToken,
  secret: Type.String({ description: 'The `pst_…` secret, shown this once' }),
});

export const FleetHealth = Open({
  results: Type.Array(
    Open(
      {
        connectionId: Type.Union([Type.String(), Type.Null()]),
        status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
        latencyMs: Type.Number(),
        engine: Type.Optional(Type.String()),
        serverVersion: Type.Optional(Type.String()),
        error: Type.Optional(Type.String()),
        code: Type.Optional(Type.String()),
        privileges: Type.Optional(
          Type.Array(Type.String(), { description: "the account's privileges beyond what the portal needs" }),
        ),
        warning: Type.Optional(Type.String({ description: 'set with privileges: what to do about them' })),
      },
      'One connection: `{connectionId, status: ok|error, latencyMs, engine?, serverVersion?, error?, code?, privileges?, warning?}`',
    ),
  ),
});

/** A bot request as its service token sees it (docs/portal-bot.md); fields by state, see the route description. */
export const BotRecord = Open({
  id: Type.String(),
  status: Type.String(),
  datasourceId: Type.String(),
  onBehalfOf: Any,
  createdAt: Type.String(),
});
export const BotSubmitted = Open({ execution: BotRecord });

/** A JSON-RPC 2.0 message (MCP over Streamable HTTP answers with JSON, `enableJsonResponse`). */
export const JsonRpcMessage = Open(
  { jsonrpc: Type.Literal('2.0'), id: Type.Optional(Any), method: Type.Optional(Type.String()) },
  'A JSON-RPC 2.0 request, notification or batch member (MCP)',
);

export const AuditEvent = Open(
  {
    id: Type.Optional(Type.String()),
    type: Type.String(),
    actor: NullableString,
    connection: Type.Optional(NullableString),
    result: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
    at: Type.String(),
  },
  'An audit line: `{type, actor, result, at, …}` (docs/portal-audit.md)',
);
export const AuditPage = Open({
  events: Type.Array(AuditEvent),
  total: Type.Number(),
  limit: Type.Number(),
  offset: Type.Number(),
  source: Type.Union([Type.Literal('store'), Type.Literal('buffer')]),
});
export const AuditWritten = Open({ success: Type.Boolean(), event: AuditEvent });

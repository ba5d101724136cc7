// Generated from the database portal OpenAPI description by packages/web-kit/scripts/generate-api-types.ts.
// Do not edit: run `npm run gen:api -w packages/web-kit` after changing a route schema.
export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The IDE
         * @description The IDE; 302 to /login without a session.
         */
        get: operations["get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The administration pages
         * @description The administration pages; 302 to /login without a session, to / for a non-administrator.
         */
        get: operations["getAdmin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log, newest first, filtered and paged
         * @description The audit log, newest first, filtered and paged; `source` says whether the store or the in-process buffer answered. 400 a malformed filter; exactly 403 `{"error":"Unauthorized. Admin access required."}` without a session or for a non-administrator.
         */
        get: operations["getApiAdminAudit"];
        put?: never;
        /**
         * A browser-reported event, appended to the in-process buffer with the session's user as actor
         * @description A browser-reported event, appended to the in-process buffer with the session's user as actor. 400 a malformed body; exactly 403 `{"error":"Unauthorized. Admin access required."}` without a session or for a non-administrator.
         */
        post: operations["postApiAdminAudit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/datasources/{id}/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create least-privilege accounts
         * @description Administrators only. Body `{profile (read|readwrite), schemas (1..100 names), agent (boolean), bootstrap?:{user, password}, vaultPath?}`. Writes the generated passwords to the vault at vaultPath (never returned), then runs each statement: `outcome` ran, refused or skipped, and `completed`. 200 complete; 409 stopped at a refusal, a blocker, or no vault to write to; 502 the vault refused (nothing ran); 400 malformed, 403 non-admin or another engine, 404 unknown datasource. Audited `account_provisioning`.
         */
        post: operations["postApiAdminDatasourcesIdAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/datasources/{id}/account/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Plan least-privilege accounts
         * @description Administrators only. Body `{profile (read|readwrite), schemas (1..100 names), agent (boolean), bootstrap?:{user, password}, vaultPath?}`. Answers `{inventory, plan:{roleName, agentRoleName, statements:[{shown, purpose, optional?, account}], blockers}, destination}` with passwords masked. 400 malformed, 403 non-admin or another engine, 404 unknown datasource.
         */
        post: operations["postApiAdminDatasourcesIdAccountPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/fleet-health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tests each connection of `{connections
         * @description Tests each connection of `{connections: [descriptor | connectionId, …]}` (at most 100) like /api/db/test-connection, 4 at a time: `{results: [{connectionId, status: ok|error, latencyMs, engine?, serverVersion?, error?, code?, privileges?, warning?}]}` in request order; `privileges` names what the datasource account holds beyond a data account (superuser, FILE, SUPER, admin commands) and `warning` points to account provisioning. 400 when `connections` is missing or not an array; 401 `{"error":"Authentication required"}` without a session; 403 for a non-admin.
         */
        post: operations["postApiAdminFleetHealth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/seed-data/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a seed run
         * @description Administrators only. Answers `{run:{id, status, mode, sourceName?, tables:[{name, target, inserted, status, error?}]}}`; a run whose job was lost ends failed with every unfinished table marked `lost`. 404 unknown id.
         */
        get: operations["getApiAdminSeedDataId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/seed-data/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a seed plan
         * @description Administrators only. Body `{datasourceId, schema?, counts?, ratios?}`. Answers `{schema, tables:[{name, columns, dependsOn, rows, deferredKeys?}], notes}` in fill order; notes say how cycles were broken. 400 malformed or unknown table names. 403 for a non-admin, another engine family, a production or read-only datasource; 404 unknown datasource; 503 unavailable or no server storage.
         */
        post: operations["postApiAdminSeedDataPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/seed-data/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a seed run
         * @description Administrators only. Body `{datasourceId, schema?, counts?, ratios?, mode? (generate|copy), sourceDatasourceId?, truncate?}`. Answers 202 `{run}` queued; the studio's job runner or a worker runs it. 409 while a run is queued or running on the datasource. Copy mode: 400 without sourceDatasourceId, 403 a source of another engine, 404 unknown source. 403 for a non-admin, another engine family, a production or read-only datasource; 404 unknown datasource; 503 unavailable or no server storage. Audited `data_seed`.
         */
        post: operations["postApiAdminSeedDataRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/service-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List service tokens
         * @description Administrators only. Answers `{tokens: [token]}` (live tokens, oldest first; never a secret).
         */
        get: operations["getApiAdminServiceTokens"];
        put?: never;
        /**
         * Create a service token
         * @description Administrators only. Body `{name (1..200, unique among live tokens), role? (admin|user, default user), groups?: string[], datasources?: string[] (allowlist of datasource ids; absent: every datasource the role may use), requireApproval?: boolean, trustedApprovals?: boolean}`. Answers 201 `{token, secret}`: the secret (`pst_…`) is shown this once; only its hash is kept. 400 malformed, 409 name taken, 503 without server storage. Audited `service_token`.
         */
        post: operations["postApiAdminServiceTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/service-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a service token
         * @description Administrators only. Answers `{success: true}`; the token stops working at once. 404 unknown or already revoked. Audited `service_token`.
         */
        delete: operations["deleteApiAdminServiceTokensId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/classify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * POST /api/agent/classify
         * @description `{objective}` (at most 4000 characters) → `{workflow}`, one of investigation, planning, operations, performance, data-quality. One model call, 16 output tokens, 8 s; 504 AI_TIMEOUT, 502 when the model names none.
         */
        post: operations["postApiAgentClassify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * `{enabled
         * @description `{enabled: boolean, reason?}`: `{enabled: false, reason: "AI is not configured"}` while AI_PROVIDER/AI_MODEL are unset (the other agent routes then answer 404); `{enabled: true}` with a model. Workflows: investigation, planning, operations, performance, data-quality.
         */
        get: operations["getApiAgentConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/drive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `{credential, instruction?}` (no session
         * @description `{credential, instruction?}` (no session: the credential from a run's `end` event names one run, is valid about one minute and works once) → 202 the run. 401 for a missing, forged, expired or reused credential; 409 while the run still runs.
         */
        post: operations["postApiAgentDrive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * POST /api/agent/runs
         * @description `{objective, connectionId (a managed datasource), workflow? (default investigation), threadId?, deadlineSeconds? (1-600, default 120)}` → 201 `{runId, threadId, datasourceId, workflow, objective, status, deadlineAt, events}`; with `Accept: text/event-stream` the answer is the run's event stream itself. Events: run, operation, refused, result, failed, text, answer, resumed, end `{status: completed|paused|failed, reason?, drive?: {credential, expiresAt}}`.
         */
        post: operations["postApiAgentRuns"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The run as `POST /api/agent/runs` describes it
         * @description The run as `POST /api/agent/runs` describes it; 404 for another person's run.
         */
        get: operations["getApiAgentRunsRunId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/runs/{runId}/artifacts/{correlationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/agent/runs/{runId}/artifacts/{correlationId}
         * @description One statement result of a live run → `{correlationId, statement, fields, rows, rowCount, truncated, durationMs}` (masked, at most 200 rows); 404 otherwise.
         */
        get: operations["getApiAgentRunsRunIdArtifactsCorrelationId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stops a running run (reason `agent_run_cancelled`)
         * @description Stops a running run (reason `agent_run_cancelled`); 409 when it is not running.
         */
        post: operations["postApiAgentRunsRunIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/runs/{runId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The run's progress as server-sent events (`id:` per event
         * @description The run's progress as server-sent events (`id:` per event; `Last-Event-ID` resumes); ends after `end`.
         */
        get: operations["getApiAgentRunsRunIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agent/runs/{runId}/handover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * POST /api/agent/runs/{runId}/handover
         * @description Replays the run's own answer statement (its last successful statement) through the read-only profile → `{runId, correlationId, statement, fields, rows, rowCount, truncated, durationMs}`. The body carries no SQL (400 if it tries); 409 before any statement ran.
         */
        post: operations["postApiAgentRunsRunIdHandover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/describe-schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Describes a schema
         * @description Describes a schema: `{connectionId, path?}` reads the managed datasource's object surface (a container path, or the whole datasource; hidden objects and masked columns are never sent; at most 30 objects) → `{text, objects}`; or `{schema}` (text or JSON the caller supplies) → `{text, objects: []}`. 503 AI_NOT_CONFIGURED, 502, 504, 429.
         */
        post: operations["postApiAiDescribeSchema"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Explains a SQL statement in plain language
         * @description Explains a SQL statement in plain language: `{sql, connectionId? | connection?: {id?, type?}, dialect?}` → `{text, classification}`. `classification` is the server's verdict ({dialect, isWrite, transactionControl, guardrails, statements: [{index, statementType, kind, doubtful, objects}]}); the model is told it and never decides it. With a managed datasource the columns of the objects used (masked ones removed) ground the answer. A dialect (or a datasource) is required. 503 AI_NOT_CONFIGURED, 502 AI_PROVIDER_ERROR, 504 AI_TIMEOUT, 429 over budget.
         */
        post: operations["postApiAiExplain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/query-safety": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reviews a SQL statement for risk before it runs
         * @description Reviews a SQL statement for risk before it runs: `{sql, connectionId? | connection?: {id?, type?}, dialect?}` → `{text, classification}`. `classification` is the server's verdict ({dialect, isWrite, transactionControl, guardrails, statements: [{index, statementType, kind, doubtful, objects}]}); the model is told it and never decides it. With a managed datasource the columns of the objects used (masked ones removed) ground the answer. A dialect (or a datasource) is required. 503 AI_NOT_CONFIGURED, 502 AI_PROVIDER_ERROR, 504 AI_TIMEOUT, 429 over budget.
         */
        post: operations["postApiAiQuerySafety"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests the caller may review (datasource `approverRoles`, or administrators)
         * @description Requests the caller may review (datasource `approverRoles`, or administrators): pending first (oldest first), then decisions (newest first). `?scope=mine` lists the caller’s own requests. Query `limit` (1..500, default 100), `offset`. Answers `{approvals: [...]}`. 401 without a session, 503 without server storage. Approval record: {id, datasourceId, datasourceName, requester, statement, route, status (pending|approved|rejected|expired), requestedAt, reviewer?, reviewedAt?, windowUntil? (approved), guardrail?, approvals? [{reviewer, at}], approvedBy?, ticket?, note?}.
         */
        get: operations["getApiApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One request, for its requester or a reviewer of its datasource
         * @description One request, for its requester or a reviewer of its datasource; 404 for anyone else and for an unknown id. Answers the record. Approval record: {id, datasourceId, datasourceName, requester, statement, route, status (pending|approved|rejected|expired), requestedAt, reviewer?, reviewedAt?, windowUntil? (approved), guardrail?, approvals? [{reviewer, at}], approvedBy?, ticket?, note?}.
         */
        get: operations["getApiApprovalsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals/{id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decides a pending request
         * @description Decides a pending request: `{decision: "approve" | "reject", windowMinutes?: 1..240 (default 15), note?: string (≤ 2000)}`. With `approvalsRequired: 2` the first approval keeps it pending (reviewer added to `approvals`); the second, by another reviewer, approves it. An approval sets `windowUntil`: until then the requester may run exactly the approved text. Answers the record. 400 malformed body; 403 not a reviewer (audited `permission_denied`) or the reviewer is the requester; 404 unknown id; 409 already decided or already approved by this reviewer; 503 without server storage. Approval record: {id, datasourceId, datasourceName, requester, statement, route, status (pending|approved|rejected|expired), requestedAt, reviewer?, reviewedAt?, windowUntil? (approved), guardrail?, approvals? [{reviewer, at}], approvedBy?, ticket?, note?}.
         */
        post: operations["postApiApprovalsIdDecision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals/{id}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The requester withdraws their own pending request
         * @description The requester withdraws their own pending request: answers the record with status `withdrawn` (audited `approval_withdrawn`). 403 for anyone but the requester, 404 unknown id, 409 already decided (the record in `approval`), 503 without server storage.
         */
        post: operations["postApiApprovalsIdWithdraw"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Records a browser-built export
         * @description Records a browser-built export: `{connectionId (1..200 characters), format (csv|json|sql-insert|sql-ddl), rows (integer ≥ 0)}` → `{success: true}`; 400 otherwise.
         */
        post: operations["postApiAuditExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Local sign-in
         * @description Local sign-in; sets the `auth-token` cookie. Refusals answer `{success: false, message}` (400 malformed body, 401 wrong credentials or code with `totpRequired`, 429 rate limited with `retry-after`).
         */
        post: operations["postApiAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ends the session (any body is ignored)
         * @description Ends the session (any body is ignored); `redirectUrl` is the OIDC end-session address.
         */
        post: operations["postApiAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The session
         * @description The session: `{authenticated: true, user: {role, username}}`, or 401 `{authenticated: false}`.
         */
        get: operations["getApiAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's redirect back (`code`, `state`
         * @description The provider's redirect back (`code`, `state`; read from the raw query): 302 to `/` or `/admin` signed in, or to `/login?error=<code>`.
         */
        get: operations["getApiAuthOidcCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Starts OIDC sign-in
         * @description Starts OIDC sign-in: 302 to the provider, or to `/login?error=<code>`.
         */
        get: operations["getApiAuthOidcLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the sign-in page offers single sign-on (local sign-in is always there)
         * @description Whether the sign-in page offers single sign-on (local sign-in is always there).
         */
        get: operations["getApiAuthProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/interactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat interaction callback (Approve / Reject buttons)
         * @description Signed by the chat platform: `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:<X-Slack-Request-Timestamp>:<raw body>">` under CHAT_SIGNING_SECRET, timestamp within five minutes, each signature once. Body `application/x-www-form-urlencoded` `payload=<block_actions JSON>`. 200 acknowledges (the outcome reaches the presser through `response_url` or the thread); 401 `INVALID_SIGNATURE` (audited `invalid_signature`); 400 a signed body that is not an interaction payload.
         */
        post: operations["postApiChatInteractions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections/managed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/connections/managed
         * @description The managed datasources the caller may see (no secrets, no objectRules) and the seed copies in flight. 401 without a session.
         */
        get: operations["getApiConnectionsManaged"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancels the caller’s own running statement
         * @description Cancels the caller’s own running statement: `{queryId}` (the id sent with /api/db/query or a transaction query). Answers `{cancelled: true}`; 404 when the caller has no running statement under that id. The cancelled statement answers 400 QUERY_CANCELLED.
         */
        post: operations["postApiDbCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/disconnect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * POST /api/db/disconnect
         * @description Closes the caller’s transactions on the connection and its pool (`{connection}` → `{disconnected, transactionsRolledBack}`). The pool of a managed datasource is shared and is closed only for an administrator.
         */
        post: operations["postApiDbDisconnect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `{connectionId | connection, sql, format
         * @description `{connectionId | connection, sql, format: csv|json|sql-insert|sql-ddl, params?, csvDelimiter? (one character, default ","), reveal?, tabName?, ticket?}`. Answers the file: Content-Disposition attachment with filename `<tabName>.<ext>`, X-Export-Rows (exact count), X-Export-Extension. csv: RFC 4180 (CRLF, quoted when needed, quotes doubled); json: an array of row objects; sql-insert: INSERT statements into `tabName` (default "export"); sql-ddl: CREATE TABLE then the INSERTs. At most the datasource maxRows or 100000 rows. 403 by the export rule, 400 EXPORT_NOT_READ_ONLY when the classifier (the engine allowlist) does not read the statement as a sure read that answers rows; 400 UNSUPPORTED_FORMAT for sql-insert/sql-ddl on an engine without SQL DDL (capability sqlExport false).
         */
        post: operations["postApiDbExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Answers while the process is up (no session)
         * @description Answers while the process is up (no session).
         */
        get: operations["getApiDbHealth"];
        put?: never;
        /**
         * Health reading of a connection (session required
         * @description Health reading of a connection (session required; 401 JSON without): `{activeConnections, databaseSize, cacheHitRatio, slowQueries: [{query, calls, avgTime}], activeSessions: [{pid, user, database, state, query, duration}]}`. Embedded engines answer cacheHitRatio "n/a" and empty lists. Any failure is 503 CONNECTION_ERROR, never a zero-filled reading.
         */
        post: operations["postApiDbHealth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a file into a table
         * @description Import a file into a table: multipart `options` (JSON: `{connection | connectionId, path, format: csv|jsonl|sql, encoding?, delimiter?, quote?, header? (default true), mapping?: [{source, column}], batchSize? (1..5000, default 1000), onError?: skip|stop, ticket?}`) then `file` (at most 2147483648 bytes, streamed to a spool file, never held in memory). CSV: an empty unquoted field is NULL, "" the empty string. CSV and JSON lines run as one governed request whose text is `-- import <format> file "<name>" (<bytes> bytes, sha256 <hash>)` and the single-row INSERT of the mapped columns: policy and write approval apply to it (403 APPROVAL_REQUIRED holds the import as one request; the same file with the same options sent again inside the window runs), masked columns cannot be written (400). Rows go in as multi-row INSERTs with bound parameters, each batch committed on its own; a batch the engine refuses is retried row by row so only the refused rows fail. An SQL script (up to 1 MiB) is governed as itself and must hold only INSERT … VALUES statements into the table (400 otherwise). Refusals before anything runs are the usual error answers; once running, the answer is `application/x-ndjson`: `{type: progress, rowCount, failedCount}` lines, then `{type: done, rowCount, failedCount, failed: [{row, line, reason}], stopped, statement, durationMs}` or `{type: error, error, code}`. One audit line (route /api/db/import) carries the counts.
         */
        post: operations["postApiDbImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/import/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import preview
         * @description Import preview: multipart `options` (JSON: `{connection | connectionId, path, format: csv|jsonl|sql, encoding?, delimiter?, quote?, header?, mapping?, limit? (1..100, default 20)}`) then `file` (or its first part: only the first records are read). Answers the table columns (`masked` ones cannot be imported into), the source fields with the type their sample values look like, a mapping by matching names, the first rows and the records that cannot be read; for an SQL script the first statements and, when it is not one, why it is not an import into the table. Nothing runs.
         */
        post: operations["postApiDbImportPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/maintenance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Administrators
         * @description Administrators: `{connection, type, target?}` runs one of the engine’s maintenance operations (see provider-meta maintenanceOperations; target required where marked). Session control: `cancel` cancels a session’s running statement (PostgreSQL pg_cancel_backend, MySQL/MariaDB KILL QUERY) and `kill` ends the session (pg_terminate_backend, KILL), target = the session id (`pid` of the health reading). Answers `{type, target?, rows, fields, rowCount, executionTime}`; unknown type or missing target 400; a non-administrator 403 FORBIDDEN, audited `permission_denied`; every run is audited (`query_execution`, action maintenance).
         */
        post: operations["postApiDbMaintenance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/monitoring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Administrators
         * @description Administrators: the health reading plus engine counters (waiting locks, uptime, max connections, … as the engine keeps them). Where the engine reports lock waits (PostgreSQL, MySQL/MariaDB InnoDB) also `locks: [{pid, blockedBy: [pid], lockType, mode, relation, user, query, waitingMs}]`.
         */
        post: operations["postApiDbMonitoring"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/multi-query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Runs a script
         * @description Runs a script: `{connection, sql, params?, ticket?}`, split under the engine grammar, statements in order on one connection, stopping at the first error; no wrapping transaction, what ran stays. Answers 200 `{executedCount, statements: [{index, status: done|failed, rowCount, fields?, rows?, durationMs, error?, truncated?}]}` (executedCount counts the statements that completed). A statement takes the params its placeholders name. Transaction control anywhere is 400 before anything runs; over 1048576 characters 413.
         */
        post: operations["postApiDbMultiQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/objects/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `{connection}` → `{counts
         * @description `{connection}` → `{counts: KindCount[]}` (objects per container and kind). Shapes: DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}.
         */
        post: operations["postApiDbObjectsCounts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/objects/describe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `{connection, path}` (a DatabaseObject path) → ObjectDetail
         * @description `{connection, path}` (a DatabaseObject path) → ObjectDetail; 404 for an unknown or hidden object. Shapes: DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}.
         */
        post: operations["postApiDbObjectsDescribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/objects/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `{connection}` → `{containers
         * @description `{connection}` → `{containers: Container[], objects: DatabaseObject[], truncated}` in one catalog read. Shapes: DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}.
         */
        post: operations["postApiDbObjectsInventory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/objects/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `{connection, path?, search?, limit?}`
         * @description `{connection, path?, search?, limit?}`: objects of one container (`path` = [schema] or [database]) or of the whole connection → `{objects: DatabaseObject[]}`. `search` keeps the objects whose name contains it (case-insensitive; the exact name first, then names starting with it) and `limit` caps the answer; with either, the answer adds `truncated` (more matched than were sent), so an editor can complete a name without fetching a 10,000-table catalog. Shapes: DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}.
         */
        post: operations["postApiDbObjectsList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/pool-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pool statistics
         * @description Pool statistics: with `{connection}` that connection’s cached pool, without one every cached pool (administrators). Answers `{pools: [{identity (hash prefix), engine, name, active, openedAt, lastUsedAt, pool: {total, idle, waiting}}]}`.
         */
        post: operations["postApiDbPoolStats"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The connection profile
         * @description The connection profile: `{engine, serverVersion, currentUser?, currentDatabase?, currentSchema?}`.
         */
        post: operations["postApiDbProfile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/provider-meta": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capability flags of an engine, so the UI hides what an engine lacks
         * @description Capability flags of an engine, so the UI hides what an engine lacks: `{type}` or `{connection}` → `{engine, label, dialect, defaultPort?, fileBased, capabilities}` (label: the name people know it by, e.g. PostgreSQL); an empty body → `{engines: [...]}` (every engine the server runs, in the order to offer them; fileBased: a database file instead of a server; connectionFields: engine-specific descriptor fields `{name, label, required, placeholder?}` the connection form asks for). capabilities: supportsExplain, explainModes, supportsCreateTable, supportsInlineRowEdit, supportsMaintenance, declaresForeignKeys, parameterStyle ($n, ?, :n, @pn), supportsPositionalParams, supportsCancel, supportsTransactions, maintenanceOperations; readOnlyEngine? (the engine only reads: every write is refused), sqlExport? (false: no sql-insert/sql-ddl export). columnTypes and defaultExpressions: what the table designer (POST /api/db/tables/ddl) accepts, present only where it is offered.
         */
        post: operations["postApiDbProviderMeta"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run one statement
         * @description Request `{connection, sql, params?, explain?: {mode: estimate|analyze}, ticket?, options?: {limit?, offset?, unlimited?}, queryId?}`. Answers `{rows, fields, rowCount, executionTime, columnTypes?, warnings?, pagination: {limit, offset, hasMore, totalReturned, wasLimited}}` plus `explainFormat` for a plan. A SELECT without its own limit gets one (500 by default, `options.limit`, `unlimited` up to the datasource maxRows or 100000). `queryId` names the statement for /api/db/cancel. 400 QUERY_ERROR with the engine message, 400 TRANSACTION_CONTROL, 400 MULTIPLE_STATEMENTS, 400 EXPLAIN_NOT_SUPPORTED / EXPLAIN_NOT_SELECT, 408 QUERY_TIMEOUT, 413 over 1048576 characters, 503 CONNECTION_ERROR. Datasource policy (docs/portal-governance.md): 403 READ_ONLY, TICKET_REQUIRED, FREEZE_WINDOW, OBJECT_FORBIDDEN, APPROVAL_REQUIRED with `approval` (the pending request) and `guardrail`; 429 CONCURRENCY_LIMIT; masked columns in rows.
         */
        post: operations["postApiDbQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/table/edits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grid edits of one table, `{connection, path, changes
         * @description Grid edits of one table, `{connection, path, changes: [{op: update, original, values} | {op: insert, values} | {op: delete, original}], preview?, ticket?}` (at most 1000 changes; `original` is the row as the browser read it, `values` the cells to write). The server builds one statement per change keyed by the primary key (or SQLite rowid; 400 for a table with neither), with the values as literals so the text is what a reviewer approves; an UPDATE or DELETE also requires every other original value that can be compared exactly to still match. `preview: true` answers the statements without running anything. Otherwise the batch runs governed as one transaction (route `transaction`: policy, write approval — 403 APPROVAL_REQUIRED holds the batch text, and the same changes sent again run once it is approved — masking: masked columns cannot be written, 400; audit per statement). An UPDATE or DELETE that affects no row means someone changed or removed the row: the batch is rolled back and the answer is 409 ROW_CONFLICT with `conflict: {index, statement}`.
         */
        post: operations["postApiDbTableEdits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/table/rows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The table browser
         * @description The table browser: one page of a table `{connection, path, offset?, limit? (1..1000, default 100), filters?: [{column, op, value?}], sorts?: [{column, direction}]}` with op one of contains, starts_with, equals, not_equals, gt, gte, lt, lte, is_null, not_null (contains and starts_with compare the value as text, case-insensitive). Columns are checked against the table (400 otherwise), identifiers quoted, values bound as parameters; the key orders ties so pages are stable. Runs governed like /api/db/query (masked columns are answered masked and may not filter or sort: 403 MASKED_COLUMN_PREDICATE). Answers the columns (with `masked`), the foreign keys (`foreignKeys: [{columnName, referencedPath, referencedColumn}]`, for navigating to the referenced row), the key (`key`, or `rowId` for a SQLite table without one), whether the grid may edit it (`editable`, else `readOnlyReason`), the page `{fields, rows}` and `total`, the number of rows matching the filters.
         */
        post: operations["postApiDbTableRows"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/tables/ddl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The table designer
         * @description The table designer: `{connection, path, create?: {columns: [{name, type, nullable?, default?}], primaryKey?, indexes?: [{name, columns, unique?}], foreignKeys?: [{name?, columns, referencedPath, referencedColumns, onDelete?, onUpdate?}]}, alter?: [{op: renameTable|addColumn|dropColumn|renameColumn|alterColumn|addPrimaryKey|addIndex|dropIndex|addForeignKey|dropForeignKey, …}], preview?, ticket?}` with exactly one of create and alter (`path`: [container, name] of the table). The server writes the DDL for the engine (PostgreSQL, MySQL/MariaDB, SQLite/libSQL, DuckDB, SQL Server, Oracle; other engines 400 UNSUPPORTED): names are checked and quoted, a type must be one of provider-meta's `columnTypes` (optionally `(n)` or `(p,s)`), a default is `{literal}` or `{expression}` from CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_TIME (those the engine has: provider-meta `defaultExpressions`); anything else, and what the engine cannot do, is 400 BAD_DESIGN with the reason. SQLite changes its ALTER TABLE cannot make (a column's type, nullability or default, keys, dropping a column a key or index uses) become one table-rebuild script (foreign keys off, BEGIN, new table, rows copied, old dropped, new renamed, indexes and triggers again, PRAGMA foreign_key_check, COMMIT), run as one unit: a failure, or a row from foreign_key_check (400 FOREIGN_KEY_CHECK), leaves the table as it was. `preview: true` answers the statements without running them. Otherwise they run governed like typed SQL (a DDL statement is a write: a read-only datasource refuses it, write approval answers 403 APPROVAL_REQUIRED holding the statements, and the same description sent again runs once approved); audit per statement. PostgreSQL, SQLite, DuckDB and SQL Server run them in one transaction; MySQL/MariaDB and Oracle commit each DDL statement, so a failure stops the batch and what ran stays.
         */
        post: operations["postApiDbTablesDdl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/test-connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Opens a fresh connection (not the cached pool) within 10000 ms and reads the server profile
         * @description Opens a fresh connection (not the cached pool) within 10000 ms and reads the server profile: `{success: true, latencyMs, engine, serverVersion, currentUser?, currentDatabase?, currentSchema?}`; failure 503 CONNECTION_ERROR or AUTHENTICATION_ERROR.
         */
        post: operations["postApiDbTestConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/db/transaction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `{connection, action
         * @description `{connection, action: begin|query|commit|rollback, transactionId?, sql?, params?, ticket?, options?, queryId?}`. begin → `{transactionId, status: "open", startedAt, idleTimeoutMs}` (at most 5 open per user, 409 beyond); query (one statement, transaction control refused) → the /api/db/query result plus `transactionId`; commit / rollback → `{transactionId, status: "committed" | "rolled_back"}`. Unknown or another user’s id 404; a transaction still running a statement 409. Idle transactions are rolled back after the idle timeout (5 minutes).
         */
        post: operations["postApiDbTransaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether server-side storage exists (`serverMode`) and which provider holds it (no session)
         * @description Whether server-side storage exists (`serverMode`) and which provider holds it (no session).
         */
        get: operations["getApiStorageConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's saved connections (credentials never sent back
         * @description The caller's saved connections (credentials never sent back: `storedSecrets` names them).
         */
        get: operations["getApiStorageConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Creates (201) or replaces (200) a saved connection
         * @description Creates (201) or replaces (200) a saved connection; credentials are sealed at rest. 409 the id of a managed datasource.
         */
        put: operations["putApiStorageConnectionsId"];
        post?: never;
        /**
         * Deletes a saved connection
         * @description Deletes a saved connection; 404 unknown id.
         */
        delete: operations["deleteApiStorageConnectionsId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's query history, newest first
         * @description The caller's query history, newest first: `{entries, total, limit, offset}`.
         */
        get: operations["getApiStorageHistory"];
        put?: never;
        /**
         * Appends a history entry (201)
         * @description Appends a history entry (201); the oldest beyond the per-user limit go.
         */
        post: operations["postApiStorageHistory"];
        /**
         * Clears the caller's query history
         * @description Clears the caller's query history: `{deleted}` (how many entries went).
         */
        delete: operations["deleteApiStorageHistory"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/queries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's saved queries, newest first
         * @description The caller's saved queries, newest first: `{queries, total, limit, offset}`.
         */
        get: operations["getApiStorageQueries"];
        put?: never;
        /**
         * Saves a query (201)
         * @description Saves a query (201).
         */
        post: operations["postApiStorageQueries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/queries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replaces a saved query
         * @description Replaces a saved query; 404 unknown id.
         */
        put: operations["putApiStorageQueriesId"];
        post?: never;
        /**
         * Deletes a saved query
         * @description Deletes a saved query; 404 unknown id.
         */
        delete: operations["deleteApiStorageQueriesId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a statement (service token)
         * @description Body `{datasourceId, statement (script of at most 32000 characters), onBehalfOf, reply?: {channel, threadTs?}, callback?: {url}, review?: {reason (1..500)}, approvedBy?: [{reviewer, at}] (1..10, trustedApprovals tokens only), ticket?}`. A guarded UPDATE, DELETE, MERGE or upsert is first dry-run in a rolled-back transaction, as on the session routes: touching every row of a table or more than the policy maxAffectedRows makes it wait (guardrail affected_rows or the every-row guardrail) with the counts on its approval, and once approved it runs held to them (rolled back, execution failed, when it would touch more). 200 `{execution: record}` when it ran; 202 `{execution: record}` while it waits (status pending: for reviewers; approved with jobId: for a worker; poll GET /api/v1/executions/{id}). 400 malformed, transaction control, review without reason, approvedBy refused, callback not HTTPS on CALLBACK_ALLOWED_HOSTS; 401 no token; 403 datasource not allowed for the token, read-only, ticket required, freeze window, object rule; 404 unknown datasource; 413 statement over 32000 characters; 429 CONCURRENCY_LIMIT or RATE_LIMITED; 503 no storage or datasource unavailable. Bot execution record: `{id, status: pending|approved|rejected, datasourceId, onBehalfOf, createdAt, jobId?, guardrail?, approvalId?, review?: {reason}, approvedBy?, rejection?: rejected|expired, execution?: {status: done|failed, rowCount, fields, rows (masked; at most 200 rows and 256 KB), truncated?, durationMs, error?: closed word}, executedCount?, statements?: [{index, status, rowCount?, durationMs, error?}]}`.
         */
        post: operations["postApiV1Executions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a submitted request (service token)
         * @description Answers the record itself (poll until `execution` is set). 404 for an unknown id or another token's request. Bot execution record: `{id, status: pending|approved|rejected, datasourceId, onBehalfOf, createdAt, jobId?, guardrail?, approvalId?, review?: {reason}, approvedBy?, rejection?: rejected|expired, execution?: {status: done|failed, rowCount, fields, rows (masked; at most 200 rows and 256 KB), truncated?, durationMs, error?: closed word}, executedCount?, statements?: [{index, status, rowCount?, durationMs, error?}]}`.
         */
        get: operations["getApiV1ExecutionsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The sign-in page (open)
         * @description The sign-in page (open).
         */
        get: operations["getLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 405
         * @description 405: no server-initiated stream (stateless endpoint).
         */
        get: operations["getMcp"];
        put?: never;
        /**
         * MCP endpoint (Streamable HTTP, service token)
         * @description JSON-RPC over Streamable HTTP (stateless). Tools: list_datasources, list_objects, describe_object, run_read (governed read; writes refused), submit_write (through approvals like POST /api/v1/executions), get_execution. Every call is audited as `mcp_call`. 401 without a valid service token, 429 over the token's budget, 503 without server storage.
         */
        post: operations["postMcp"];
        /**
         * 405
         * @description 405: there are no sessions to end.
         */
        delete: operations["deleteMcp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /metrics
         * @description Prometheus metrics (text exposition format)
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/html: the web UI */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description 302 redirect (Location header) */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getAdmin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/html: the web UI */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description 302 redirect (Location header) */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAdminAudit: {
        parameters: {
            query?: {
                /** @description at most 200 characters */
                actor?: string;
                /** @description datasource id, at most 200 characters */
                connection?: string;
                /** @description ISO-8601 instant with a zone, inclusive */
                from?: string;
                /** @description 1..500, default 100 */
                limit?: string;
                /** @description ≥ 0, default 0 */
                offset?: string;
                result?: "success" | "failure";
                source?: "store" | "buffer";
                /** @description ISO-8601 instant with a zone, inclusive */
                to?: string;
                /** @description event type, at most 200 characters */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: ({
                            actor: string | null;
                            at: string;
                            connection?: string | null;
                            id?: string;
                            result: "success" | "failure";
                            type: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        limit: number;
                        offset: number;
                        source: "store" | "buffer";
                        total: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAdminAudit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Any further fields are kept; actor, time and id are the server’s */
        requestBody: {
            content: {
                "application/json": {
                    connection?: string | null;
                    result?: "success" | "failure";
                    type: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description An audit line: `{type, actor, result, at, …}` (docs/portal-audit.md) */
                        event: {
                            actor: string | null;
                            at: string;
                            connection?: string | null;
                            id?: string;
                            result: "success" | "failure";
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAdminDatasourcesIdAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        /** @description the run: every required statement ran */
                        completed?: boolean;
                        destination: {
                            kind: "vault" | "none";
                            path?: string;
                            reason?: string;
                            version?: number;
                        };
                        error?: string;
                        inventory: {
                            canCreateRoles: boolean;
                            /** @description the account the statements run as */
                            connectedAs: string;
                            database: string;
                            engine: string;
                            /** @description planned accounts that exist (password reset) */
                            existingAccounts: string[];
                            schemas: {
                                exists: boolean;
                                name: string;
                            }[];
                        } & {
                            [key: string]: unknown;
                        };
                        plan: {
                            agentRoleName?: string;
                            blockers: string[];
                            roleName: string;
                            statements: {
                                account: string;
                                error?: string;
                                /** @description a refusal does not stop the run */
                                optional?: boolean;
                                outcome?: "ran" | "refused" | "skipped";
                                purpose: string;
                                /** @description passwords replaced by ******** */
                                shown: string;
                            }[];
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        /** @description the run: every required statement ran */
                        completed?: boolean;
                        destination: {
                            kind: "vault" | "none";
                            path?: string;
                            reason?: string;
                            version?: number;
                        };
                        error?: string;
                        inventory: {
                            canCreateRoles: boolean;
                            /** @description the account the statements run as */
                            connectedAs: string;
                            database: string;
                            engine: string;
                            /** @description planned accounts that exist (password reset) */
                            existingAccounts: string[];
                            schemas: {
                                exists: boolean;
                                name: string;
                            }[];
                        } & {
                            [key: string]: unknown;
                        };
                        plan: {
                            agentRoleName?: string;
                            blockers: string[];
                            roleName: string;
                            statements: {
                                account: string;
                                error?: string;
                                /** @description a refusal does not stop the run */
                                optional?: boolean;
                                outcome?: "ran" | "refused" | "skipped";
                                purpose: string;
                                /** @description passwords replaced by ******** */
                                shown: string;
                            }[];
                        };
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAdminDatasourcesIdAccountPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        /** @description the run: every required statement ran */
                        completed?: boolean;
                        destination: {
                            kind: "vault" | "none";
                            path?: string;
                            reason?: string;
                            version?: number;
                        };
                        error?: string;
                        inventory: {
                            canCreateRoles: boolean;
                            /** @description the account the statements run as */
                            connectedAs: string;
                            database: string;
                            engine: string;
                            /** @description planned accounts that exist (password reset) */
                            existingAccounts: string[];
                            schemas: {
                                exists: boolean;
                                name: string;
                            }[];
                        } & {
                            [key: string]: unknown;
                        };
                        plan: {
                            agentRoleName?: string;
                            blockers: string[];
                            roleName: string;
                            statements: {
                                account: string;
                                error?: string;
                                /** @description a refusal does not stop the run */
                                optional?: boolean;
                                outcome?: "ran" | "refused" | "skipped";
                                purpose: string;
                                /** @description passwords replaced by ******** */
                                shown: string;
                            }[];
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAdminFleetHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connections: (string | {
                        [key: string]: unknown;
                    })[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: ({
                            code?: string;
                            connectionId: string | null;
                            engine?: string;
                            error?: string;
                            latencyMs: number;
                            /** @description the account's privileges beyond what the portal needs */
                            privileges?: string[];
                            serverVersion?: string;
                            status: "ok" | "error";
                            /** @description set with privileges: what to do about them */
                            warning?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAdminSeedDataId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: {
                            createdAt: string;
                            datasourceId: string;
                            error?: string;
                            finishedAt?: string;
                            id: string;
                            mode: "generate" | "copy";
                            schema: string;
                            sourceName?: string;
                            status: "queued" | "running" | "done" | "failed";
                            tables: {
                                error?: string;
                                inserted: number;
                                name: string;
                                status: "pending" | "running" | "done" | "failed" | "lost";
                                /** @description rows the run meant to insert */
                                target: number;
                            }[];
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAdminSeedDataPlan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        notes: string[];
                        schema: string;
                        tables: {
                            columns: {
                                name: string;
                                nullable: boolean;
                                type: string;
                            }[];
                            /** @description foreign keys filled by an update once their parent is (cycle breaks) */
                            deferredKeys?: string[];
                            /** @description tables filled first */
                            dependsOn: string[];
                            name: string;
                            rows: number;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAdminSeedDataRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: {
                            createdAt: string;
                            datasourceId: string;
                            error?: string;
                            finishedAt?: string;
                            id: string;
                            mode: "generate" | "copy";
                            schema: string;
                            sourceName?: string;
                            status: "queued" | "running" | "done" | "failed";
                            tables: {
                                error?: string;
                                inserted: number;
                                name: string;
                                status: "pending" | "running" | "done" | "failed" | "lost";
                                /** @description rows the run meant to insert */
                                target: number;
                            }[];
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAdminServiceTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: ({
                            created_at: string;
                            /** @description null: every datasource the role may use */
                            datasources: string[] | null;
                            groups: string[];
                            id: string;
                            last_used_at: string | null;
                            name: string;
                            prefix: string;
                            requireApproval: boolean;
                            role: string;
                            trustedApprovals: boolean;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAdminServiceTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description allowlist of datasource ids; absent: every datasource the role may use */
                    datasources?: string[] | null;
                    /** @description groups the token acts with */
                    groups?: string[] | null;
                    /** @description unique among live tokens */
                    name: string;
                    requireApproval?: boolean | null;
                    role?: "admin" | "user" | null;
                    trustedApprovals?: boolean | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The `pst_…` secret, shown this once */
                        secret: string;
                        /** @description A service token (never its secret or hash) */
                        token: {
                            created_at: string;
                            /** @description null: every datasource the role may use */
                            datasources: string[] | null;
                            groups: string[];
                            id: string;
                            last_used_at: string | null;
                            name: string;
                            prefix: string;
                            requireApproval: boolean;
                            role: string;
                            trustedApprovals: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteApiAdminServiceTokensId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{success: true}` and any detail the route adds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAgentClassify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    objective: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflow: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAgentConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        reason?: string;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAgentDrive: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credential: string;
                    instruction?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        datasourceId: string;
                        deadlineAt: unknown;
                        /** @description the run’s event-stream address */
                        events?: string;
                        objective: string;
                        runId: string;
                        status: string;
                        threadId: string;
                        workflow: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAgentRuns: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a managed datasource */
                    connectionId: string;
                    /** @default 120 */
                    deadlineSeconds?: number;
                    objective: string;
                    threadId?: string;
                    workflow?: "investigation" | "planning" | "operations" | "performance" | "data-quality";
                };
            };
        };
        responses: {
            /** @description text/event-stream: the run’s events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        datasourceId: string;
                        deadlineAt: unknown;
                        /** @description the run’s event-stream address */
                        events?: string;
                        objective: string;
                        runId: string;
                        status: string;
                        threadId: string;
                        workflow: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAgentRunsRunId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        datasourceId: string;
                        deadlineAt: unknown;
                        /** @description the run’s event-stream address */
                        events?: string;
                        objective: string;
                        runId: string;
                        status: string;
                        threadId: string;
                        workflow: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAgentRunsRunIdArtifactsCorrelationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                correlationId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        correlationId: string;
                        durationMs: number;
                        fields: string[];
                        rowCount: number;
                        rows: {
                            [key: string]: unknown;
                        }[];
                        statement: string;
                        truncated: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAgentRunsRunIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cancelled: boolean;
                        runId: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAgentRunsRunIdEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream: the run’s events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAgentRunsRunIdHandover: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        /** @description no fields: the run’s own statement is replayed (a `sql` or `statement` field is 400) */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The run’s answer statement replayed read-only: its artifact (masked, at most 200 rows) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        correlationId: string;
                        durationMs: number;
                        fields: string[];
                        rowCount: number;
                        rows: {
                            [key: string]: unknown;
                        }[];
                        runId: string;
                        statement: string;
                        truncated: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAiDescribeSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    /** @description a managed datasource grounds the answer */
                    connectionId?: string;
                    /** @description a container path of the datasource */
                    path?: string[];
                    /** @description schema text or JSON, without a datasource */
                    schema?: string | {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        objects: string[];
                        text: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAiExplain: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    /** @description a managed datasource grounds the answer */
                    connectionId?: string;
                    /** @description the engine, when no datasource names it */
                    dialect?: string;
                    sql: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The server's verdict (never the model's) */
                        classification: {
                            /** @description the engine grammar the statement was read with */
                            dialect: string;
                            guardrails: string[];
                            /** @description any statement writes (a doubtful one counts as a write) */
                            isWrite: boolean;
                            statements: ({
                                /** @description the parser was unsure; counted as a write */
                                doubtful: boolean;
                                index: number;
                                kind: "read" | "write";
                                objects: string[];
                                statementType: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            transactionControl: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        text: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAiQuerySafety: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    /** @description a managed datasource grounds the answer */
                    connectionId?: string;
                    /** @description the engine, when no datasource names it */
                    dialect?: string;
                    sql: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The server's verdict (never the model's) */
                        classification: {
                            /** @description the engine grammar the statement was read with */
                            dialect: string;
                            guardrails: string[];
                            /** @description any statement writes (a doubtful one counts as a write) */
                            isWrite: boolean;
                            statements: ({
                                /** @description the parser was unsure; counted as a write */
                                doubtful: boolean;
                                index: number;
                                kind: "read" | "write";
                                objects: string[];
                                statementType: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            transactionControl: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        text: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiApprovals: {
        parameters: {
            query?: {
                /** @description 1..500, default 100 */
                limit?: string;
                /** @description ≥ 0, default 0 */
                offset?: string;
                scope?: "mine" | "review" | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approvals: ({
                            approvals?: {
                                at: string;
                                reviewer: string;
                            }[];
                            approvedBy?: {
                                at: string;
                                reviewer: string;
                            }[];
                            datasourceId: string;
                            datasourceName: string;
                            dryRun?: ({
                                indirect?: boolean;
                                inserted?: number;
                                reported: number;
                                statement: number;
                                table: string;
                                total: number;
                                touched: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            guardrail?: string;
                            id: string;
                            note?: string;
                            requestedAt: string;
                            requester: string;
                            reviewedAt?: string;
                            reviewer?: string;
                            route: string;
                            statement: string;
                            status: "pending" | "approved" | "rejected" | "expired" | "withdrawn";
                            ticket?: string;
                            windowUntil?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiApprovalsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description approval request id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approvals?: {
                            at: string;
                            reviewer: string;
                        }[];
                        approvedBy?: {
                            at: string;
                            reviewer: string;
                        }[];
                        datasourceId: string;
                        datasourceName: string;
                        dryRun?: ({
                            indirect?: boolean;
                            inserted?: number;
                            reported: number;
                            statement: number;
                            table: string;
                            total: number;
                            touched: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        guardrail?: string;
                        id: string;
                        note?: string;
                        requestedAt: string;
                        requester: string;
                        reviewedAt?: string;
                        reviewer?: string;
                        route: string;
                        statement: string;
                        status: "pending" | "approved" | "rejected" | "expired" | "withdrawn";
                        ticket?: string;
                        windowUntil?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiApprovalsIdDecision: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description approval request id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    decision: "approve" | "reject";
                    note?: string | null;
                    /** @default 15 */
                    windowMinutes?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approvals?: {
                            at: string;
                            reviewer: string;
                        }[];
                        approvedBy?: {
                            at: string;
                            reviewer: string;
                        }[];
                        datasourceId: string;
                        datasourceName: string;
                        dryRun?: ({
                            indirect?: boolean;
                            inserted?: number;
                            reported: number;
                            statement: number;
                            table: string;
                            total: number;
                            touched: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        guardrail?: string;
                        id: string;
                        note?: string;
                        requestedAt: string;
                        requester: string;
                        reviewedAt?: string;
                        reviewer?: string;
                        route: string;
                        statement: string;
                        status: "pending" | "approved" | "rejected" | "expired" | "withdrawn";
                        ticket?: string;
                        windowUntil?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiApprovalsIdWithdraw: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description approval request id */
                id: string;
            };
            cookie?: never;
        };
        /** @description an empty object `{}` */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approvals?: {
                            at: string;
                            reviewer: string;
                        }[];
                        approvedBy?: {
                            at: string;
                            reviewer: string;
                        }[];
                        datasourceId: string;
                        datasourceName: string;
                        dryRun?: ({
                            indirect?: boolean;
                            inserted?: number;
                            reported: number;
                            statement: number;
                            table: string;
                            total: number;
                            touched: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        guardrail?: string;
                        id: string;
                        note?: string;
                        requestedAt: string;
                        requester: string;
                        reviewedAt?: string;
                        reviewer?: string;
                        route: string;
                        statement: string;
                        status: "pending" | "approved" | "rejected" | "expired" | "withdrawn";
                        ticket?: string;
                        windowUntil?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAuditExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId: string;
                    format: "csv" | "json" | "sql-insert" | "sql-ddl";
                    rows: number;
                };
            };
        };
        responses: {
            /** @description `{success: true}` and any detail the route adds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The second-factor code when the account has one */
                    code?: string | number | null;
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description `{success: true, role}`; a refusal is `{success: false, message, totpRequired?}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message?: string;
                        role?: "admin" | "user";
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `{success: true, role}`; a refusal is `{success: false, message, totpRequired?}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message?: string;
                        role?: "admin" | "user";
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `{success: true, role}`; a refusal is `{success: false, message, totpRequired?}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message?: string;
                        role?: "admin" | "user";
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `{success: true, role}`; a refusal is `{success: false, message, totpRequired?}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message?: string;
                        role?: "admin" | "user";
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        redirectUrl?: string;
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authenticated: boolean;
                        user?: {
                            role: "admin" | "user";
                            username: string;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authenticated: boolean;
                        user?: {
                            role: "admin" | "user";
                            username: string;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiAuthOidcCallback: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 302 redirect (Location header) */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getApiAuthOidcLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 302 redirect (Location header) */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getApiAuthProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        local: boolean;
                        oidc: boolean;
                        provider: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiChatInteractions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description block_actions JSON */
                    payload: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiConnectionsManaged: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: ({
                            approvalsRequired?: number;
                            available?: boolean;
                            canExport?: boolean;
                            createdAt?: string;
                            id: string;
                            managed?: boolean;
                            name?: string;
                            policy?: {
                                [key: string]: unknown;
                            };
                            readOnly?: boolean;
                            requireTicket?: boolean;
                            /** @description Saved connections: the credentials the server holds sealed */
                            storedSecrets?: string[];
                            type?: string;
                            unavailableReason?: string;
                            updatedAt?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description Seed runs queued or running on the listed datasources */
                        pendingSeeds: ({
                            datasourceId: string;
                            mode: string;
                            runId: string;
                            status: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbCancel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    queryId: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cancelled: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbDisconnect: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        disconnected: unknown;
                        transactionsRolledBack: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    csvDelimiter?: string;
                    format: string;
                    params?: unknown;
                    reveal?: boolean;
                    sql: string;
                    tabName?: string;
                    ticket?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The file (csv, json, sql): Content-Disposition attachment, X-Export-Rows, X-Export-Extension */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiDbHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        service: string;
                        status: string;
                        timestamp: string;
                    };
                };
            };
        };
    };
    postApiDbHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A connection health reading (providers/types.ts) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        activeConnections: number;
                        activeSessions: ({
                            database: string;
                            /** @description milliseconds */
                            duration: number;
                            /** @description the session id (`target` of the cancel and kill maintenance operations) */
                            pid: number | string;
                            query: string;
                            state: string;
                            user: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description a percentage, or "n/a" where the engine keeps none */
                        cacheHitRatio: string;
                        /** @description as people read it (42 MB) */
                        databaseSize: string;
                        slowQueries: ({
                            avgTime: number;
                            calls: number;
                            query: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description the file (CSV, JSON lines or an SQL script)
                     */
                    file: string;
                    /** @description the import options as JSON (ImportOptions); sent before the file */
                    options: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": {
                        code?: string;
                        durationMs?: number;
                        error?: string;
                        /** @description done: the failed rows (at most 1000) */
                        failed?: ({
                            /** @description line of the file it starts on */
                            line: number;
                            reason: string;
                            /** @description data record (or statement) number, 1-based */
                            row: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        failedCount?: number;
                        /** @description rows written so far / in all */
                        rowCount?: number;
                        /** @description done: the governed text the import ran as */
                        statement?: string;
                        stopped?: boolean;
                        type: "progress" | "done" | "error";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbImportPreview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description the file (CSV, JSON lines or an SQL script)
                     */
                    file: string;
                    /** @description the import options as JSON (ImportOptions); sent before the file */
                    options: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        columns: ({
                            isPrimary: boolean;
                            /** @description cannot be written by an import */
                            masked: boolean;
                            name: string;
                            nullable: boolean;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description records of the sample that cannot be read */
                        failed: ({
                            /** @description line of the file it starts on */
                            line: number;
                            reason: string;
                            /** @description data record (or statement) number, 1-based */
                            row: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description source fields in file order */
                        fields: string[];
                        format: string;
                        /** @description per source field, what its sample values look like: integer, number, boolean, date, timestamp, json, text, empty */
                        kinds: {
                            [key: string]: string;
                        };
                        mapping: {
                            column: string;
                            source: string;
                        }[];
                        /** @description SQL scripts: why the script is not an import into the table */
                        refusal?: string;
                        /** @description the first records, by source field */
                        rows: {
                            [key: string]: unknown;
                        }[];
                        statementCount?: number;
                        /** @description SQL scripts: the first statements */
                        statements?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbMaintenance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    target?: string;
                    type: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        executionTime: number;
                        fields: string[];
                        rowCount: number;
                        rows: {
                            [key: string]: unknown;
                        }[];
                        target?: string;
                        type: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbMonitoring: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The health reading plus the engine's own counters (numbers, text, or an object of them: waiting locks, uptime, max connections, …) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        activeConnections: number;
                        activeSessions: ({
                            database: string;
                            /** @description milliseconds */
                            duration: number;
                            /** @description the session id (`target` of the cancel and kill maintenance operations) */
                            pid: number | string;
                            query: string;
                            state: string;
                            user: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description a percentage, or "n/a" where the engine keeps none */
                        cacheHitRatio: string;
                        /** @description as people read it (42 MB) */
                        databaseSize: string;
                        /** @description where the engine reports lock waits (PostgreSQL, MySQL/MariaDB InnoDB) */
                        locks?: ({
                            /** @description the sessions holding the lock */
                            blockedBy: number[];
                            lockType: string;
                            mode: string;
                            pid: number;
                            query: string;
                            relation: string;
                            user: string;
                            waitingMs: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        slowQueries: ({
                            avgTime: number;
                            calls: number;
                            query: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbMultiQuery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    params?: unknown;
                    sql: string;
                    ticket?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        executedCount: number;
                        statements: ({
                            durationMs: number;
                            error?: string;
                            fields?: string[];
                            index: number;
                            rowCount: number;
                            rows?: {
                                [key: string]: unknown;
                            }[];
                            status: "done" | "failed";
                            /** @description more rows than a script statement returns */
                            truncated?: boolean;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbObjectsCounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        counts: ({
                            count: number;
                            kind: string;
                            path: string[];
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbObjectsDescribe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    /** @description string array: a DatabaseObject path */
                    path?: unknown;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        columns: ({
                            defaultValue?: unknown;
                            isPrimary: boolean;
                            name: string;
                            nullable: boolean;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description view or routine source when the engine keeps it */
                        definition?: string;
                        foreignKeys: ({
                            columnName: string;
                            constraintName?: string;
                            onDelete?: string;
                            onUpdate?: string;
                            referencedColumn?: string;
                            referencedPath?: string[];
                            referencedTable?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        indexes: ({
                            columns: string[];
                            name: string;
                            unique: boolean;
                        } & {
                            [key: string]: unknown;
                        })[];
                        object: {
                            kind: string;
                            name: string;
                            /** @description containers, then the name */
                            path: string[];
                            rowCount?: number;
                            sizeBytes?: number;
                            status?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbObjectsInventory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        containers: ({
                            kind: string;
                            name: string;
                            path: string[];
                        } & {
                            [key: string]: unknown;
                        })[];
                        objects: ({
                            kind: string;
                            name: string;
                            /** @description containers, then the name */
                            path: string[];
                            rowCount?: number;
                            sizeBytes?: number;
                            status?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        truncated: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbObjectsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    /** @description at most this many objects */
                    limit?: number;
                    /** @description string array: a DatabaseObject path */
                    path?: unknown;
                    /** @description name contains (case-insensitive) */
                    search?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        objects: ({
                            kind: string;
                            name: string;
                            /** @description containers, then the name */
                            path: string[];
                            rowCount?: number;
                            sizeBytes?: number;
                            status?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        truncated?: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbPoolStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        pools: {
                            [key: string]: unknown;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        currentDatabase?: string;
                        currentSchema?: string;
                        currentUser?: string;
                        engine: string;
                        serverVersion: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbProviderMeta: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    type?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description One engine (`EngineMeta`) for `{type}` or `{connection}`; `{engines}` for an empty body */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        engines?: ({
                            capabilities: {
                                declaresForeignKeys: boolean;
                                explainModes: ("estimate" | "analyze")[];
                                maintenanceOperations: ({
                                    description: string;
                                    targetRequired: boolean;
                                    type: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                parameterStyle: "$n" | "?" | ":n" | "@pn";
                                readOnlyEngine?: boolean;
                                sqlExport?: boolean;
                                supportsCancel: boolean;
                                supportsCreateTable: boolean;
                                supportsExplain: boolean;
                                supportsInlineRowEdit: boolean;
                                supportsMaintenance: boolean;
                                supportsPositionalParams: boolean;
                                supportsTransactions: boolean;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description types the table designer offers (POST /api/db/tables/ddl); absent: the engine has no designer */
                            columnTypes?: string[];
                            connectionFields?: ({
                                label: string;
                                name: string;
                                placeholder?: string;
                                required: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description the non-literal column defaults the designer accepts */
                            defaultExpressions?: string[];
                            defaultPort?: number;
                            dialect: string;
                            /** @description what the web editor needs of the engine's text (providers/editor-facts.ts) */
                            editor: {
                                /** @description Format: an sql-formatter language, or json (pretty-printed); absent: no formatting */
                                formatter?: string;
                                /** @description words completion offers besides the objects */
                                keywords: string[];
                                /** @description the Monaco language the editor colours the text with */
                                language: string;
                                /** @description how the dialect quotes an identifier: open, the name with each close doubled, close (`"`/`"`, `` ` ``/`` ` ``, `[`/`]`) */
                                quote: {
                                    close: string;
                                    open: string;
                                };
                                /** @description sql: statements (a script may hold several); json: one JSON request; command: one command line */
                                request: "sql" | "json" | "command";
                                /** @description the dialect's dbgate-query-splitter options: the editor splits a script where the server does */
                                splitter: {
                                    [key: string]: unknown;
                                };
                            };
                            engine: string;
                            fileBased: boolean;
                            /** @description the name people know the engine by (PostgreSQL, SQL Server) */
                            label: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbQuery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    /** @description {mode: "estimate" | "analyze"} */
                    explain?: unknown;
                    options?: {
                        limit?: unknown;
                        offset?: unknown;
                        unlimited?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description Array of positional parameters: string, number, boolean or null */
                    params?: unknown;
                    queryId?: string;
                    sql: string;
                    /** @description Trimmed to 120 characters; written to the audit line */
                    ticket?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        columnTypes?: unknown;
                        executionTime: number;
                        explainFormat?: string;
                        fields: string[];
                        pagination: {
                            hasMore: boolean;
                            limit: number;
                            offset: number;
                            totalReturned: number;
                            wasLimited: boolean;
                        };
                        rowCount: number;
                        rows: {
                            [key: string]: unknown;
                        }[];
                        warnings?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbTableEdits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    changes: {
                        /** @enum {string} */
                        op: "update" | "insert" | "delete";
                        original?: {
                            [key: string]: unknown;
                        };
                        values?: {
                            [key: string]: unknown;
                        };
                    }[];
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    /** @description the table: a DatabaseObject path (containers then the name) */
                    path: string[];
                    preview?: boolean;
                    ticket?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description false for a preview */
                        applied: boolean;
                        results?: ({
                            index: number;
                            rowCount: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description the batch, in order, exactly as it runs */
                        statements: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbTableRows: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    filters?: {
                        column: string;
                        /** @enum {string} */
                        op: "contains" | "starts_with" | "equals" | "not_equals" | "gt" | "gte" | "lt" | "lte" | "is_null" | "not_null";
                        /** @description string, number, boolean or null */
                        value?: unknown;
                    }[];
                    limit?: number;
                    offset?: number;
                    /** @description the table: a DatabaseObject path (containers then the name) */
                    path: string[];
                    sorts?: {
                        column: string;
                        /** @enum {string} */
                        direction: "asc" | "desc";
                    }[];
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        columns: ({
                            isPrimary: boolean;
                            /** @description values are answered masked; the column cannot be edited or steer */
                            masked: boolean;
                            name: string;
                            nullable: boolean;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        editable: boolean;
                        executionTime: number;
                        fields: string[];
                        /** @description the table's foreign keys: a cell of `columnName` names a row of `referencedPath` */
                        foreignKeys: ({
                            columnName: string;
                            referencedColumn: string;
                            referencedPath: string[];
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description rows may be imported into it (POST /api/db/import) */
                        importable?: boolean;
                        /** @description primary-key columns, empty when rows are keyed by rowId */
                        key: string[];
                        limit: number;
                        offset: number;
                        readOnlyReason?: string;
                        /** @description the field carrying the engine row id (__rowid) */
                        rowId?: string;
                        rows: {
                            [key: string]: unknown;
                        }[];
                        /** @description rows matching the filters */
                        total: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbTablesDdl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    alter?: {
                        changed?: ("type" | "nullable" | "default")[];
                        column?: {
                            /** @description {literal: string | number | boolean | null} or {expression: CURRENT_TIMESTAMP | CURRENT_DATE | CURRENT_TIME} */
                            default?: {
                                /** @enum {string} */
                                expression?: "CURRENT_TIMESTAMP" | "CURRENT_DATE" | "CURRENT_TIME";
                                /** @description string, number, boolean or null (checked by the route) */
                                literal?: unknown;
                            };
                            name: string;
                            nullable?: boolean;
                            /** @description one of provider-meta's columnTypes, optionally (n) or (p,s) */
                            type: string;
                        };
                        columns?: string[];
                        foreignKey?: {
                            columns: string[];
                            name?: string;
                            /** @enum {string} */
                            onDelete?: "NO ACTION" | "RESTRICT" | "CASCADE" | "SET NULL" | "SET DEFAULT";
                            /** @enum {string} */
                            onUpdate?: "NO ACTION" | "RESTRICT" | "CASCADE" | "SET NULL" | "SET DEFAULT";
                            referencedColumns: string[];
                            referencedPath: string[];
                        };
                        index?: {
                            columns: string[];
                            name: string;
                            unique?: boolean;
                        };
                        name?: string;
                        /** @enum {string} */
                        op: "renameTable" | "addColumn" | "dropColumn" | "renameColumn" | "alterColumn" | "addPrimaryKey" | "addIndex" | "dropIndex" | "addForeignKey" | "dropForeignKey";
                        to?: string;
                    }[];
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                    create?: {
                        columns: {
                            /** @description {literal: string | number | boolean | null} or {expression: CURRENT_TIMESTAMP | CURRENT_DATE | CURRENT_TIME} */
                            default?: {
                                /** @enum {string} */
                                expression?: "CURRENT_TIMESTAMP" | "CURRENT_DATE" | "CURRENT_TIME";
                                /** @description string, number, boolean or null (checked by the route) */
                                literal?: unknown;
                            };
                            name: string;
                            nullable?: boolean;
                            /** @description one of provider-meta's columnTypes, optionally (n) or (p,s) */
                            type: string;
                        }[];
                        foreignKeys?: {
                            columns: string[];
                            name?: string;
                            /** @enum {string} */
                            onDelete?: "NO ACTION" | "RESTRICT" | "CASCADE" | "SET NULL" | "SET DEFAULT";
                            /** @enum {string} */
                            onUpdate?: "NO ACTION" | "RESTRICT" | "CASCADE" | "SET NULL" | "SET DEFAULT";
                            referencedColumns: string[];
                            referencedPath: string[];
                        }[];
                        indexes?: {
                            columns: string[];
                            name: string;
                            unique?: boolean;
                        }[];
                        primaryKey?: string[];
                    };
                    path: string[];
                    preview?: boolean;
                    ticket?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description false for a preview */
                        applied: boolean;
                        /** @description the DDL, in order, exactly as it runs */
                        statements: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbTestConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    connectionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        currentDatabase?: string;
                        currentSchema?: string;
                        currentUser?: string;
                        engine?: string;
                        latencyMs: number;
                        serverVersion?: string;
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiDbTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "begin" | "query" | "commit" | "rollback";
                    /** @description Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. `ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. `sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES. */
                    connection?: {
                        [key: string]: unknown;
                    };
                    options?: {
                        [key: string]: unknown;
                    };
                    params?: unknown;
                    queryId?: string;
                    sql?: string;
                    ticket?: string;
                    transactionId?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description `{transactionId, status}` for begin/commit/rollback, a statement result for `query` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiStorageConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        provider: string;
                        serverMode: boolean;
                    };
                };
            };
        };
    };
    getApiStorageConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: ({
                            approvalsRequired?: number;
                            available?: boolean;
                            canExport?: boolean;
                            createdAt?: string;
                            id: string;
                            managed?: boolean;
                            name?: string;
                            policy?: {
                                [key: string]: unknown;
                            };
                            readOnly?: boolean;
                            requireTicket?: boolean;
                            /** @description Saved connections: the credentials the server holds sealed */
                            storedSecrets?: string[];
                            type?: string;
                            unavailableReason?: string;
                            updatedAt?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    putApiStorageConnectionsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: string;
                    name: string;
                    type: "postgres" | "mysql" | "sqlite" | "libsql" | "duckdb" | "mssql" | "oracle" | "mongodb" | "redis" | "leveldb" | "couchbase" | "clickhouse" | "druid" | "trino" | "athena" | "elasticsearch" | "opensearch" | "cassandra";
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Connection descriptor without secrets (database-portal.md) */
                        connection: {
                            approvalsRequired?: number;
                            available?: boolean;
                            canExport?: boolean;
                            createdAt?: string;
                            id: string;
                            managed?: boolean;
                            name?: string;
                            policy?: {
                                [key: string]: unknown;
                            };
                            readOnly?: boolean;
                            requireTicket?: boolean;
                            /** @description Saved connections: the credentials the server holds sealed */
                            storedSecrets?: string[];
                            type?: string;
                            unavailableReason?: string;
                            updatedAt?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Connection descriptor without secrets (database-portal.md) */
                        connection: {
                            approvalsRequired?: number;
                            available?: boolean;
                            canExport?: boolean;
                            createdAt?: string;
                            id: string;
                            managed?: boolean;
                            name?: string;
                            policy?: {
                                [key: string]: unknown;
                            };
                            readOnly?: boolean;
                            requireTicket?: boolean;
                            /** @description Saved connections: the credentials the server holds sealed */
                            storedSecrets?: string[];
                            type?: string;
                            unavailableReason?: string;
                            updatedAt?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteApiStorageConnectionsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{success: true}` and any detail the route adds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiStorageHistory: {
        parameters: {
            query?: {
                connectionId?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: ({
                            connectionId: string | null;
                            connectionName: string | null;
                            durationMs: number | null;
                            error: string | null;
                            executedAt: string;
                            id: number | string;
                            rowCount: number | null;
                            sql: string;
                            status: "success" | "failure";
                        } & {
                            [key: string]: unknown;
                        })[];
                        limit: number;
                        offset: number;
                        total: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiStorageHistory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: null | string;
                    connectionName?: null | string;
                    durationMs?: null | number;
                    error?: null | string;
                    rowCount?: null | number;
                    sql: string;
                    status: "success" | "failure";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entry: {
                            connectionId: string | null;
                            connectionName: string | null;
                            durationMs: number | null;
                            error: string | null;
                            executedAt: string;
                            id: number | string;
                            rowCount: number | null;
                            sql: string;
                            status: "success" | "failure";
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteApiStorageHistory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiStorageQueries: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        limit: number;
                        offset: number;
                        queries: ({
                            connectionId: string | null;
                            createdAt: string;
                            description: string | null;
                            id: string;
                            name: string;
                            sql: string;
                            tags: string[];
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        total: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiStorageQueries: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: null | string;
                    description?: null | string;
                    name: string;
                    sql: string;
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        query: {
                            connectionId: string | null;
                            createdAt: string;
                            description: string | null;
                            id: string;
                            name: string;
                            sql: string;
                            tags: string[];
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    putApiStorageQueriesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connectionId?: null | string;
                    description?: null | string;
                    name: string;
                    sql: string;
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        query: {
                            connectionId: string | null;
                            createdAt: string;
                            description: string | null;
                            id: string;
                            name: string;
                            sql: string;
                            tags: string[];
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteApiStorageQueriesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{success: true}` and any detail the route adds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postApiV1Executions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    approvedBy?: {
                        at: string;
                        reviewer: string;
                    }[];
                    callback?: {
                        url: string;
                    };
                    datasourceId: string;
                    onBehalfOf: string;
                    reply?: {
                        channel: string;
                        threadTs?: string;
                    };
                    review?: {
                        reason: string;
                    };
                    /** @description a script */
                    statement: string;
                    ticket?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        execution: {
                            createdAt: string;
                            datasourceId: string;
                            id: string;
                            onBehalfOf: unknown;
                            status: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        execution: {
                            createdAt: string;
                            datasourceId: string;
                            id: string;
                            onBehalfOf: unknown;
                            status: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiV1ExecutionsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        datasourceId: string;
                        id: string;
                        onBehalfOf: unknown;
                        status: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/html: the web UI */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description 302 redirect (Location header) */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    postMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": ({
                    id?: unknown;
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    method?: string;
                } & {
                    [key: string]: unknown;
                }) | ({
                    id?: unknown;
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    method?: string;
                } & {
                    [key: string]: unknown;
                })[];
            };
        };
        responses: {
            /** @description A JSON-RPC 2.0 request, notification or batch member (MCP) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id?: unknown;
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        method?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A JSON-RPC 2.0 request, notification or batch member (MCP) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id?: unknown;
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        method?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Signed in, but the role or token does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code?: string;
                        error?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/plain */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
        };
    };
}

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
        get: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
        put?: never;
        post: {
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
                    content?: never;
                };
            };
        };
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
        post: {
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
                            completed?: boolean;
                            destination?: {
                                kind?: string;
                                path?: string;
                                reason?: string;
                                version?: number;
                            };
                            error?: string;
                            inventory?: {
                                [key: string]: unknown;
                            };
                            plan?: {
                                agentRoleName?: string;
                                blockers?: string[];
                                roleName?: string;
                                statements?: {
                                    account?: string;
                                    error?: string;
                                    optional?: boolean;
                                    /** @enum {string} */
                                    outcome?: "ran" | "refused" | "skipped";
                                    purpose?: string;
                                    shown?: string;
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
                            completed?: boolean;
                            destination?: {
                                kind?: string;
                                path?: string;
                                reason?: string;
                                version?: number;
                            };
                            error?: string;
                            inventory?: {
                                [key: string]: unknown;
                            };
                            plan?: {
                                agentRoleName?: string;
                                blockers?: string[];
                                roleName?: string;
                                statements?: {
                                    account?: string;
                                    error?: string;
                                    optional?: boolean;
                                    /** @enum {string} */
                                    outcome?: "ran" | "refused" | "skipped";
                                    purpose?: string;
                                    shown?: string;
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
        post: {
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
                            completed?: boolean;
                            destination?: {
                                kind?: string;
                                path?: string;
                                reason?: string;
                                version?: number;
                            };
                            error?: string;
                            inventory?: {
                                [key: string]: unknown;
                            };
                            plan?: {
                                agentRoleName?: string;
                                blockers?: string[];
                                roleName?: string;
                                statements?: {
                                    account?: string;
                                    error?: string;
                                    optional?: boolean;
                                    /** @enum {string} */
                                    outcome?: "ran" | "refused" | "skipped";
                                    purpose?: string;
                                    shown?: string;
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
        /** @description Tests each connection of `{connections: [descriptor | connectionId, …]}` (at most 100) like /api/db/test-connection, 4 at a time: `{results: [{connectionId, status: ok|error, latencyMs, engine?, serverVersion?, error?, code?}]}` in request order. 400 when `connections` is missing or not an array; 401 `{"error":"Authentication required"}` without a session; 403 for a non-admin. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                            run?: {
                                createdAt?: string;
                                datasourceId?: string;
                                error?: string;
                                finishedAt?: string;
                                id?: string;
                                /** @enum {string} */
                                mode?: "generate" | "copy";
                                schema?: string;
                                sourceName?: string;
                                /** @enum {string} */
                                status?: "queued" | "running" | "done" | "failed";
                                tables?: {
                                    error?: string;
                                    inserted?: number;
                                    name?: string;
                                    /** @enum {string} */
                                    status?: "pending" | "running" | "done" | "failed" | "lost";
                                    target?: number;
                                }[];
                                updatedAt?: string;
                            };
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
        post: {
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
                            notes?: string[];
                            schema?: string;
                            tables?: {
                                columns?: {
                                    name?: string;
                                    nullable?: boolean;
                                    type?: string;
                                }[];
                                deferredKeys?: string[];
                                dependsOn?: string[];
                                name?: string;
                                rows?: number;
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
        post: {
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
                            run?: {
                                createdAt?: string;
                                datasourceId?: string;
                                error?: string;
                                finishedAt?: string;
                                id?: string;
                                /** @enum {string} */
                                mode?: "generate" | "copy";
                                schema?: string;
                                sourceName?: string;
                                /** @enum {string} */
                                status?: "queued" | "running" | "done" | "failed";
                                tables?: {
                                    error?: string;
                                    inserted?: number;
                                    name?: string;
                                    /** @enum {string} */
                                    status?: "pending" | "running" | "done" | "failed" | "lost";
                                    target?: number;
                                }[];
                                updatedAt?: string;
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
        get: {
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
                            tokens?: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a service token
         * @description Administrators only. Body `{name (1..200, unique among live tokens), role? (admin|user, default user), groups?: string[], datasources?: string[] (allowlist of datasource ids; absent: every datasource the role may use), requireApproval?: boolean, trustedApprovals?: boolean}`. Answers 201 `{token, secret}`: the secret (`pst_…`) is shown this once; only its hash is kept. 400 malformed, 409 name taken, 503 without server storage. Audited `service_token`.
         */
        post: {
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
                    content?: never;
                };
            };
        };
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
        delete: {
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
                    content?: never;
                };
            };
        };
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
        /** @description `{enabled: boolean, reason?}`: `{enabled: false, reason: "AI is not configured"}` while AI_PROVIDER/AI_MODEL are unset (the other agent routes then answer 404); `{enabled: true}` with a model. Workflows: investigation, planning, operations, performance, data-quality. */
        get: {
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
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
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
        /** @description Describes a schema: `{connectionId, path?}` reads the managed datasource's object surface (a container path, or the whole datasource; hidden objects and masked columns are never sent; at most 30 objects) → `{text, objects}`; or `{schema}` (text or JSON the caller supplies) → `{text, objects: []}`. 503 AI_NOT_CONFIGURED, 502, 504, 429. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Explains a SQL statement in plain language: `{sql, connectionId? | connection?: {id?, type?}, dialect?}` → `{text, classification}`. `classification` is the server's verdict ({dialect, isWrite, transactionControl, guardrails, statements: [{index, statementType, kind, doubtful, objects}]}); the model is told it and never decides it. With a managed datasource the columns of the objects used (masked ones removed) ground the answer. A dialect (or a datasource) is required. 503 AI_NOT_CONFIGURED, 502 AI_PROVIDER_ERROR, 504 AI_TIMEOUT, 429 over budget. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Reviews a SQL statement for risk before it runs: `{sql, connectionId? | connection?: {id?, type?}, dialect?}` → `{text, classification}`. `classification` is the server's verdict ({dialect, isWrite, transactionControl, guardrails, statements: [{index, statementType, kind, doubtful, objects}]}); the model is told it and never decides it. With a managed datasource the columns of the objects used (masked ones removed) ground the answer. A dialect (or a datasource) is required. 503 AI_NOT_CONFIGURED, 502 AI_PROVIDER_ERROR, 504 AI_TIMEOUT, 429 over budget. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Requests the caller may review (datasource `approverRoles`, or administrators): pending first (oldest first), then decisions (newest first). `?scope=mine` lists the caller’s own requests. Query `limit` (1..500, default 100), `offset`. Answers `{approvals: [...]}`. 401 without a session, 503 without server storage. Approval record: {id, datasourceId, datasourceName, requester, statement, route, status (pending|approved|rejected|expired), requestedAt, reviewer?, reviewedAt?, windowUntil? (approved), guardrail?, approvals? [{reviewer, at}], approvedBy?, ticket?, note?}. */
        get: {
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
                    content?: never;
                };
            };
        };
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
        /** @description One request, for its requester or a reviewer of its datasource; 404 for anyone else and for an unknown id. Answers the record. Approval record: {id, datasourceId, datasourceName, requester, statement, route, status (pending|approved|rejected|expired), requestedAt, reviewer?, reviewedAt?, windowUntil? (approved), guardrail?, approvals? [{reviewer, at}], approvedBy?, ticket?, note?}. */
        get: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Decides a pending request: `{decision: "approve" | "reject", windowMinutes?: 1..240 (default 15), note?: string (≤ 2000)}`. With `approvalsRequired: 2` the first approval keeps it pending (reviewer added to `approvals`); the second, by another reviewer, approves it. An approval sets `windowUntil`: until then the requester may run exactly the approved text. Answers the record. 400 malformed body; 403 not a reviewer (audited `permission_denied`) or the reviewer is the requester; 404 unknown id; 409 already decided or already approved by this reviewer; 503 without server storage. Approval record: {id, datasourceId, datasourceName, requester, statement, route, status (pending|approved|rejected|expired), requestedAt, reviewer?, reviewedAt?, windowUntil? (approved), guardrail?, approvals? [{reviewer, at}], approvedBy?, ticket?, note?}. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Records a browser-built export: `{connectionId (1..200 characters), format (csv|json|sql-insert|sql-ddl), rows (integer ≥ 0)}` → `{success: true}`; 400 otherwise. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        post: {
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
                    content?: never;
                };
            };
        };
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
        post: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        post: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Cancels the caller’s own running statement: `{queryId}` (the id sent with /api/db/query or a transaction query). Answers `{cancelled: true}`; 404 when the caller has no running statement under that id. The cancelled statement answers 400 QUERY_CANCELLED. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Closes the caller’s transactions on the connection and its pool (`{connection}` → `{disconnected, transactionsRolledBack}`). The pool of a managed datasource is shared and is closed only for an administrator. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description `{connectionId | connection, sql, format: csv|json|sql-insert|sql-ddl, params?, csvDelimiter? (one character, default ","), reveal?, tabName?, ticket?}`. Answers the file: Content-Disposition attachment with filename `<tabName>.<ext>`, X-Export-Rows (exact count), X-Export-Extension. csv: RFC 4180 (CRLF, quoted when needed, quotes doubled); json: an array of row objects; sql-insert: INSERT statements into `tabName` (default "export"); sql-ddl: CREATE TABLE then the INSERTs. At most the datasource maxRows or 100000 rows. 403 by the export rule, 400 when the statement does not only read; 400 UNSUPPORTED_FORMAT for sql-insert/sql-ddl on an engine without SQL DDL (capability sqlExport false). */
        post: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
        put?: never;
        /** @description Health reading of a connection (session required; 401 JSON without): `{activeConnections, databaseSize, cacheHitRatio, slowQueries: [{query, calls, avgTime}], activeSessions: [{pid, user, database, state, query, duration}]}`. Embedded engines answer cacheHitRatio "n/a" and empty lists. Any failure is 503 CONNECTION_ERROR, never a zero-filled reading. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Administrators: `{connection, type, target?}` runs one of the engine’s maintenance operations (see provider-meta maintenanceOperations; target required where marked). Answers `{type, target?, rows, fields, rowCount, executionTime}`; unknown type or missing target 400. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Administrators: the health reading plus engine counters (waiting locks, uptime, max connections, … as the engine keeps them). */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Runs a script: `{connection, sql, params?, ticket?}`, split under the engine grammar, statements in order on one connection, stopping at the first error; no wrapping transaction, what ran stays. Answers 200 `{executedCount, statements: [{index, status: done|failed, rowCount, fields?, rows?, durationMs, error?, truncated?}]}` (executedCount counts the statements that completed). A statement takes the params its placeholders name. Transaction control anywhere is 400 before anything runs; over 1048576 characters 413. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description `{connection}` → `{counts: KindCount[]}` (objects per container and kind). Shapes: DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description `{connection, path}` (a DatabaseObject path) → ObjectDetail; 404 for an unknown or hidden object. Shapes: DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description `{connection}` → `{containers: Container[], objects: DatabaseObject[], truncated}` in one catalog read. Shapes: DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description `{connection, path?}`: objects of one container (`path` = [schema] or [database]) or of the whole connection → `{objects: DatabaseObject[]}`. Shapes: DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Pool statistics: with `{connection}` that connection’s cached pool, without one every cached pool (administrators). Answers `{pools: [{identity (hash prefix), engine, name, active, openedAt, lastUsedAt, pool: {total, idle, waiting}}]}`. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description The connection profile: `{engine, serverVersion, currentUser?, currentDatabase?, currentSchema?}`. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Capability flags of an engine, so the UI hides what an engine lacks: `{type}` or `{connection}` → `{engine, dialect, defaultPort?, fileBased, capabilities}`; an empty body → `{engines: [...]}` (every engine the server runs, in the order to offer them; fileBased: a database file instead of a server; connectionFields: engine-specific descriptor fields `{name, label, required, placeholder?}` the connection form asks for). capabilities: supportsExplain, explainModes, supportsCreateTable, supportsInlineRowEdit, supportsMaintenance, declaresForeignKeys, parameterStyle ($n, ?, :n, @pn), supportsPositionalParams, supportsCancel, supportsTransactions, maintenanceOperations; readOnlyEngine? (the engine only reads: every write is refused), sqlExport? (false: no sql-insert/sql-ddl export). */
        post: {
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
                    content?: never;
                };
            };
        };
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
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description Opens a fresh connection (not the cached pool) within 10000 ms and reads the server profile: `{success: true, latencyMs, engine, serverVersion, currentUser?, currentDatabase?, currentSchema?}`; failure 503 CONNECTION_ERROR or AUTHENTICATION_ERROR. */
        post: {
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
                    content?: never;
                };
            };
        };
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
        /** @description `{connection, action: begin|query|commit|rollback, transactionId?, sql?, params?, ticket?, options?, queryId?}`. begin → `{transactionId, status: "open", startedAt, idleTimeoutMs}` (at most 5 open per user, 409 beyond); query (one statement, transaction control refused) → the /api/db/query result plus `transactionId`; commit / rollback → `{transactionId, status: "committed" | "rolled_back"}`. Unknown or another user’s id 404; a transaction still running a statement 409. Idle transactions are rolled back after the idle timeout (5 minutes). */
        post: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        put: {
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
                    content?: never;
                };
            };
        };
        post?: never;
        delete: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
        put?: never;
        post: {
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
        put?: never;
        post: {
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
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
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
        put: {
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
                    content?: never;
                };
            };
        };
        post?: never;
        delete: {
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
                    content?: never;
                };
            };
        };
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
         * @description Body `{datasourceId, statement (script of at most 32000 characters), onBehalfOf, reply?: {channel, threadTs?}, callback?: {url}, review?: {reason (1..500)}, approvedBy?: [{reviewer, at}] (1..10, trustedApprovals tokens only), ticket?}`. 200 `{execution: record}` when it ran; 202 `{execution: record}` while it waits (status pending: for reviewers; approved with jobId: for a worker; poll GET /api/v1/executions/{id}). 400 malformed, transaction control, review without reason, approvedBy refused, callback not HTTPS on CALLBACK_ALLOWED_HOSTS; 401 no token; 403 datasource not allowed for the token, read-only, ticket required, freeze window, object rule; 404 unknown datasource; 413 statement over 32000 characters; 429 CONCURRENCY_LIMIT or RATE_LIMITED; 503 no storage or datasource unavailable. Bot execution record: `{id, status: pending|approved|rejected, datasourceId, onBehalfOf, createdAt, jobId?, guardrail?, approvalId?, review?: {reason}, approvedBy?, rejection?: rejected|expired, execution?: {status: done|failed, rowCount, fields, rows (masked; at most 200 rows and 256 KB), truncated?, durationMs, error?: closed word}, executedCount?, statements?: [{index, status, rowCount?, durationMs, error?}]}`.
         */
        post: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
        /** @description 405: no server-initiated stream (stateless endpoint). */
        get: {
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
                    content?: never;
                };
            };
        };
        put?: never;
        /**
         * MCP endpoint (Streamable HTTP, service token)
         * @description JSON-RPC over Streamable HTTP (stateless). Tools: list_datasources, list_objects, describe_object, run_read (governed read; writes refused), submit_write (through approvals like POST /api/v1/executions), get_execution. Every call is audited as `mcp_call`. 401 without a valid service token, 429 over the token's budget, 503 without server storage.
         */
        post: {
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
                    content?: never;
                };
            };
        };
        /** @description 405: there are no sessions to end. */
        delete: {
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
                    content?: never;
                };
            };
        };
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
        get: {
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
                    content?: never;
                };
            };
        };
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
export type operations = Record<string, never>;

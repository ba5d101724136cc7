// Generated from the CI control plane OpenAPI description by packages/web-kit/scripts/generate-api-types.ts.
// Do not edit: run `npm run gen:api -w packages/web-kit` after changing a route schema.
export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public keys that verify job id_tokens (RS256)
         * @description Minimum access: public.
         */
        get: operations["getWellKnownJwksJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OIDC discovery document of the jobs' id_tokens issuer
         * @description Minimum access: public.
         */
        get: operations["getWellKnownOpenidConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/v1/account/api-tokens
         * @description Minimum access: authenticated.
         */
        get: operations["getApiV1AccountApiTokens"];
        put?: never;
        /**
         * Mints a personal API token (`ci_` + 32 random bytes, base64url)
         * @description Mints a personal API token (`ci_` + 32 random bytes, base64url). The secret is in this response only; the token acts with its owner’s current role. expires_at: RFC 3339 in the future, or null.
         *
         *     Minimum access: authenticated.
         */
        post: operations["postApiV1AccountApiTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/api-tokens/{id}": {
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
         * DELETE /api/v1/account/api-tokens/{id}
         * @description Minimum access: authenticated.
         */
        delete: operations["deleteApiV1AccountApiTokensId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/v1/account/preferences
         * @description Minimum access: authenticated.
         */
        get: operations["getApiV1AccountPreferences"];
        /**
         * PUT /api/v1/account/preferences
         * @description Minimum access: authenticated.
         */
        put: operations["putApiV1AccountPreferences"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/agents/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an agent
         * @description The agent’s credential is refused from now on and its name cannot be registered again; its gRPC session is closed with `Unauthenticated` (the agent logs it and exits) and the job runs it held are re-queued (a running one as a new attempt that spends no retry). Revoking twice answers the same.
         *
         *     Minimum access: admin.
         */
        post: operations["postApiV1AdminAgentsIdRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/agents/registration-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the agent registration token
         * @description Generates a new registration token and answers it once (store it where new agents read `CI_AGENT_TOKEN`); the previous token is refused from now on. Registered agents keep working: they connect with their own credentials. A later restart with a different configured `CI_AGENT_TOKEN` makes that one the token in force again.
         *
         *     Minimum access: admin.
         */
        post: operations["postApiV1AdminAgentsRegistrationToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/approver-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Approver groups gates may name in approval.approver_groups
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminApproverGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/approver-groups/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Create an approver group or replace its members
         * @description Minimum access: admin.
         */
        put: operations["putApiV1AdminApproverGroupsName"];
        post?: never;
        /**
         * DELETE /api/v1/admin/approver-groups/{name}
         * @description Minimum access: admin.
         */
        delete: operations["deleteApiV1AdminApproverGroupsName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit entries, newest first
         * @description Audit entries, newest first. Every state-changing request is recorded (action = method and route pattern, e.g. `PUT /api/v1/admin/users/{id}/role`) and named sign-in events (`auth.login`, `auth.logout`, `auth.oidc_login`). details carry status, outcome, request_id, how the actor authenticated and non-secret fields. Filters: actor and action (exact), since (RFC 3339, inclusive).
         *
         *     Minimum access: admin.
         */
        get: operations["getApiV1AdminAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/v1/admin/auth/providers
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminAuthProviders"];
        put?: never;
        /**
         * POST /api/v1/admin/auth/providers
         * @description Minimum access: admin.
         */
        post: operations["postApiV1AdminAuthProviders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/auth/providers/{id}": {
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
         * DELETE /api/v1/admin/auth/providers/{id}
         * @description Minimum access: admin.
         */
        delete: operations["deleteApiV1AdminAuthProvidersId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/auth/providers/reload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * POST /api/v1/admin/auth/providers/reload
         * @description Minimum access: admin.
         */
        post: operations["postApiV1AdminAuthProvidersReload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Detailed health of the control plane
         * @description `database`: a `select 1` round trip. `scheduler`: the trigger timer of this replica (polling and cron), whether it holds the leader lease, when it last ticked and how late that tick started (`tick_lag_ms`; over 10 s makes the status degraded). `agents`: the fleet by status from the store (`source: database`), else the agents connected to this replica (`source: memory`).
         *
         *     Minimum access: admin.
         */
        get: operations["getApiV1AdminHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCM host integrations
         * @description One entry per supported host. Secrets are never shown, only whether they are set. Global secrets come from CI_CONFIG `webhooks.<host>.secret`, else `CI_WEBHOOK_SECRET`.
         *
         *     Minimum access: admin.
         */
        get: operations["getApiV1AdminIntegrations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/integrations/{host}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One SCM host integration
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminIntegrationsHost"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/oidc/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signing keys of job id_tokens (lifecycle only, never key material)
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminOidcKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/oidc/keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the id_tokens signing key
         * @description `graceful` (default): the old key stays in the JWKS until the tokens it signed have expired (1 h). `emergency`: older keys leave the JWKS at once and their tokens stop verifying.
         *
         *     Minimum access: admin.
         */
        post: operations["postApiV1AdminOidcKeysRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retention sweeper stats: last run, totals, current quotas
         * @description `last_run_at` and `last_run`: when the sweeper (every `interval`, in the replica holding the retention lease) last finished and what it removed (null before its first run). `totals`: what the store holds now, counted on each call. `quotas`: CI_CONFIG `retention` with defaults (days are ages, bytes are limits). `log_archive`: the global archive policy (projects may override it).
         *
         *     Minimum access: admin.
         */
        get: operations["getApiV1AdminRetention"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/scm-credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCM credentials (without their secrets)
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminScmCredentials"];
        put?: never;
        /**
         * Store a credential for the repositories under a URL
         * @description `url`: an http(s) address of a host, group or repository (`https://git.example.com/org`), without credentials in it; the longest prefix matching a repository wins. `username` defaults to `x-access-token` (GitHub tokens; GitLab and Bitbucket want `oauth2` / `x-token-auth` or the account name). `secret`: the token or password, at most 16 KiB. The same URL prefix again replaces the credential (200); a new one is 201.
         *
         *     Minimum access: admin.
         */
        post: operations["postApiV1AdminScmCredentials"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/scm-credentials/{id}": {
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
         * Remove an SCM credential
         * @description Minimum access: admin.
         */
        delete: operations["deleteApiV1AdminScmCredentialsId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/v1/admin/secrets
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminSecrets"];
        put?: never;
        /**
         * POST /api/v1/admin/secrets
         * @description Minimum access: admin.
         */
        post: operations["postApiV1AdminSecrets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/secrets/{name}": {
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
         * DELETE /api/v1/admin/secrets/{name}
         * @description Minimum access: admin.
         */
        delete: operations["deleteApiV1AdminSecretsName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/service-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/v1/admin/service-accounts
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminServiceAccounts"];
        put?: never;
        /**
         * POST /api/v1/admin/service-accounts
         * @description Minimum access: admin.
         */
        post: operations["postApiV1AdminServiceAccounts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/service-accounts/{id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/v1/admin/service-accounts/{id}/tokens
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminServiceAccountsIdTokens"];
        put?: never;
        /**
         * POST /api/v1/admin/service-accounts/{id}/tokens
         * @description Minimum access: admin.
         */
        post: operations["postApiV1AdminServiceAccountsIdTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/service-accounts/{id}/tokens/{tokenId}": {
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
         * DELETE /api/v1/admin/service-accounts/{id}/tokens/{tokenId}
         * @description Minimum access: admin.
         */
        delete: operations["deleteApiV1AdminServiceAccountsIdTokensTokenId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/storage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Storage backend of artifacts, caches and archived logs
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminStorage"];
        /**
         * Change the storage backend (applied at the next start)
         * @description `{"backend": "local", "path": "/abs/folder"}` or `{"backend": "s3", "s3": {"bucket", "endpoint"?, "region"?, "prefix"?, "force_path_style"?, "access_key_id"?, "secret_access_key"?}}`. Another backend is 400 naming the supported ones. Stored in the database (the secret sealed with CI_SECRET_KEY) and applied when the server starts; nothing is copied between backends. When the answer differs from what the running process uses, the response carries `X-Service-Restart-Required: true`. An S3 body without `secret_access_key` but with the stored `access_key_id` keeps the stored secret.
         *
         *     Minimum access: admin.
         */
        put: operations["putApiV1AdminStorage"];
        post?: never;
        /**
         * Reset the storage backend to CI_CONFIG `storage` (or CI_DATA_DIR)
         * @description Removes the stored configuration; `X-Service-Restart-Required: true` when that changes the backend in use.
         *
         *     Minimum access: admin.
         */
        delete: operations["deleteApiV1AdminStorage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/v1/admin/users
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminUsers"];
        put?: never;
        /**
         * POST /api/v1/admin/users
         * @description Minimum access: admin.
         */
        post: operations["postApiV1AdminUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Changes a user’s role (409 for the last administrator)
         * @description Changes a user’s role (409 for the last administrator). Their tokens follow at once.
         *
         *     Minimum access: admin.
         */
        put: operations["putApiV1AdminUsersIdRole"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inbound webhook deliveries, newest first
         * @description Every delivery is kept, whatever its outcome, for 30 days and at most the newest 5,000.
         *
         *     Minimum access: admin.
         */
        get: operations["getApiV1AdminWebhooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook delivery with its headers and body
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AdminWebhooksId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent fleet
         * @description Agents by name, with their tags, capacity, status (`online`, `busy` while holding jobs, `offline` when disconnected or silent for 60 s), the jobs they hold, last heartbeat and version. Read-only: agents register themselves over gRPC.
         *
         *     Minimum access: admin.
         */
        get: operations["getApiV1Agents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One agent
         * @description Minimum access: admin.
         */
        get: operations["getApiV1AgentsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/artifacts/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an artifact through a signed link
         * @description The link comes from `GET /api/v1/runs/{id}/artifacts?download=true`. No credentials are needed; a changed or expired signature is 403. The body is the exact bytes uploaded; `X-Content-SHA256` carries their hex SHA-256.
         *
         *     Minimum access: public.
         */
        get: operations["getApiV1ArtifactsIdDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/job_runs/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a gate
         * @description Releases the gate once `approval.required` distinct people approved. The body is optional. A job that is not awaiting approval is 409, and so is a second approval by the same person and a job of a run that still waits for its fork approval (`POST /runs/{id}/approve` first). 403 `{error}` naming why when the gate lists `approval.approvers` / `approval.approver_groups` and the caller is none of them, or when the caller triggered the run and the gate does not set `approval.allow_self_approval: true`.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1JobRunsIdApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/job_runs/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a gate (the run fails)
         * @description The gate fails and the run winds down to `failed`. The body is optional. A job that is not awaiting approval is 409. 403 `{error}` when the gate lists its approvers and the caller is none of them (rejecting a gate of a run one triggered is allowed).
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1JobRunsIdReject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/job_runs/{id}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-queue a finished job run as a new attempt in the same run
         * @description The earlier attempt and its logs stay readable. Jobs that were skipped because of it run again, and later stages start over. 409 while the job or a later stage is active, or when an earlier stage or one of its needs did not succeed.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1JobRunsIdRerun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /api/v1/me
         * @description Minimum access: authenticated.
         */
        get: operations["getApiV1Me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Changes the password of a local user
         * @description Changes the password of a local user. 400 when new_password is shorter than 12 characters or the account has no local password; 401 when current_password is wrong (rate limited like sign-in). Other sessions of the user end; API tokens stay valid.
         *
         *     Minimum access: authenticated.
         */
        post: operations["postApiV1MePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/pipelines/{id}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a run of the pipeline (cause manual)
         * @description The body is optional. The run's counter is the next of the pipeline (consecutive under concurrent triggers). The first stage's jobs are queued for agents. An archived pipeline is 409.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1PipelinesIdTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/pipelines/{id}/yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The pipeline's YAML as applied
         * @description `reconstructed: false`: the text as applied (its own slice of a JSON-variant bundle, comments kept, or the whole file of a multipart apply). `reconstructed: true`: that text was not available or could not stand alone, and the parsed definition was written back as YAML. Archived pipelines answer too.
         *
         *     Minimum access: maintainer.
         */
        get: operations["getApiV1PipelinesIdYaml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The plugin catalog
         * @description Built-in manifests (`git` and `cron` materials, `junit` test reports, `artifacts`, `cache`) merged with the manifests found at server start in the folders of CI_CONFIG `plugins.manifest_dirs` (`.yaml`, `.yml` or `.json`, each one manifest or an array; folders in the order given, files by name). A later manifest with the same name replaces an earlier one, a built-in included; a malformed file is logged and skipped. Sorted by name. Changes to the folders apply at the next start.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1Plugins"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List projects
         * @description Minimum access: viewer.
         */
        get: operations["getApiV1Projects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project with its active pipelines and recent runs
         * @description Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlug"];
        put?: never;
        post?: never;
        /**
         * Delete a project
         * @description Deletes the project with its pipelines, versions, materials, runs, job runs, log lines, artifacts records and secrets. The spec allows maintainer or admin; maintainer is required here.
         *
         *     Minimum access: maintainer.
         */
        delete: operations["deleteApiV1ProjectsSlug"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/caches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cache entries of the project
         * @description Most recently used first. `size_bytes` is the stored archive.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugCaches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/caches/{id}": {
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
         * Purge a cache entry
         * @description Removes the entry and its archive; the next run that asks for the key misses.
         *
         *     Minimum access: admin.
         */
        delete: operations["deleteApiV1ProjectsSlugCachesId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/commit-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where the project reports commit statuses
         * @description Runs caused by a push or a pull request (webhook or poll, and reruns of those) post a status on their commit: pending when created, running when started (GitHub: pending), then success, failure or canceled (GitHub: error; Bitbucket: STOPPED), linking to the run page. Delivered through the notification outbox with its retries; the history is at `/notifications/deliveries` (kind `commit_status`).
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugCommitStatus"];
        /**
         * Set where the project reports commit statuses
         * @description Replaces the configuration; a field left out takes its default. `token` (write-only) replaces the stored token, the project secret COMMIT_STATUS_TOKEN; it is never returned. Applies to statuses raised after the change; statuses already queued read the token when they are sent.
         *
         *     Minimum access: maintainer.
         */
        put: operations["putApiV1ProjectsSlugCommitStatus"];
        post?: never;
        /**
         * Stop reporting commit statuses
         * @description Removes the configuration and the project secret COMMIT_STATUS_TOKEN.
         *
         *     Minimum access: maintainer.
         */
        delete: operations["deleteApiV1ProjectsSlugCommitStatus"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/config-repo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The repository folder the project's pipelines are read from
         * @description Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugConfigRepo"];
        /**
         * Keep the project's pipelines in its repository
         * @description Binds the project (created when it does not exist) to a repository folder, reads its pipeline files at the branch head and applies them as the apply route does (a full declaration; pipelines without a git or upstream material get this repository as theirs). From then on a push to the branch (webhook), a poll that sees it move, and a project sync read the folder again before runs start. A definition that does not apply is recorded in `error` with its revision and changes nothing.
         *
         *     Minimum access: maintainer.
         */
        put: operations["putApiV1ProjectsSlugConfigRepo"];
        post?: never;
        /**
         * Stop reading the pipelines from the repository (the applied pipelines stay)
         * @description Minimum access: maintainer.
         */
        delete: operations["deleteApiV1ProjectsSlugConfigRepo"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/crons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cron schedules of the project
         * @description Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugCrons"];
        put?: never;
        /**
         * Add a cron schedule
         * @description Each firing starts one run (cause `cron`) of each listed pipeline (every active pipeline when `pipeline_ids` is empty or absent) at the head of its default branch, once across all replicas. Names are unique in the project (409); at most 100 schedules per project.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1ProjectsSlugCrons"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/crons/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a cron schedule
         * @description Fields left out keep their values.
         *
         *     Minimum access: maintainer.
         */
        put: operations["putApiV1ProjectsSlugCronsId"];
        post?: never;
        /**
         * Remove a cron schedule
         * @description Minimum access: maintainer.
         */
        delete: operations["deleteApiV1ProjectsSlugCronsId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/fork-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What pull requests from forks start in this project
         * @description Default `{on_fork: "approve", trusted_authors: [], allow_secrets: false}`: a pull request whose head repository is not the base repository (GitHub), whose source project is not the target project (GitLab) or whose source repository is not the destination (Bitbucket) starts a run that waits for a maintainer and whose jobs get no secrets.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugForkPolicy"];
        /**
         * Set what pull requests from forks start in this project
         * @description Replaces the policy; a field left out takes its default (`approve`, no trusted authors, no secrets). Trusted authors skip the approval; secrets follow `allow_secrets` for every fork run, approved or not. Applies to deliveries received after the change. The change is audited.
         *
         *     Minimum access: maintainer.
         */
        put: operations["putApiV1ProjectsSlugForkPolicy"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/log-archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's log-archive override and the setting in effect
         * @description `override`: the project's own setting, null when it inherits the global one (CI_CONFIG `retention.log_archive`, default disabled after 30d). `effective`: what the archiver applies: a finished job's log older than `after` is compressed into one blob on the storage backend and its rows removed. `after` is the delay as a duration, `after_days` the same in whole days.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugLogArchive"];
        /**
         * Set or clear the project's log-archive override
         * @description `{"override": {"enabled": true, "after": "12h"}}` (a duration; `0s` archives as soon as a job finishes) or `{"override": {"enabled": true, "after_days": 7}}` (an integer ≥ 1) sets the override; exactly one of `after` and `after_days`. `{"override": null}` removes it so the global setting applies. Answers like GET.
         *
         *     Minimum access: maintainer.
         */
        put: operations["putApiV1ProjectsSlugLogArchive"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's notification config
         * @description Channels and the events each wants (delivered through an outbox with retries). Maintainers and admins see targets in full; viewers see URL targets cut to their origin (`redacted: true`), since chat and webhook URLs often carry a token.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugNotifications"];
        /**
         * Replace the project's notification config
         * @description `{"channels": [{"kind": "webhook"|"email"|"chat", "target": "…", "events": ["run.failed", …]}]}`, at most 20 channels. Events: run.started, run.succeeded, run.failed, run.canceled, run.fixed, gate.waiting (at least one, no repeats). Targets: webhook an http(s) URL, email an address, chat an http(s) incoming-webhook URL or a `#channel`; URLs may not carry credentials. Unknown fields are 400. `{"channels": []}` turns notifications off. Events are written to an outbox in the transaction of the run transition and delivered with retries (docs/ci-operations.md); the history is at `/notifications/deliveries`.
         *
         *     Minimum access: maintainer.
         */
        put: operations["putApiV1ProjectsSlugNotifications"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/notifications/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's notification delivery history
         * @description Newest first. `status`: `pending` (waiting for its next attempt), `delivered` or `failed` (after the last attempt or a permanent refusal). Filter with `status` and `event`.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugNotificationsDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/pipelines/{name}/badge.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The pipeline's status badge (SVG) for READMEs
         * @description Public (no authentication, as README images are fetched anonymously): the latest run's status of the pipeline, optionally of one branch — passing, failing, running, queued, canceled, or unknown (no run, or no such project or pipeline: the answer does not say which exist). `Cache-Control: no-cache`.
         *
         *     Minimum access: public.
         */
        get: operations["getApiV1ProjectsSlugPipelinesNameBadgeSvg"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/poll-interval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's poll-interval override
         * @description Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugPollInterval"];
        /**
         * Override how often the git materials of the project are polled
         * @description `{"interval": "5m"}` polls every git material of the project at that interval (1s..7d), whatever its own `poll_interval`; `{"interval": ""}` disables polling for the project; `{"interval": null}` removes the override so each material's `poll_interval` applies again. Anything else is 400.
         *
         *     Minimum access: maintainer.
         */
        put: operations["putApiV1ProjectsSlugPollInterval"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/run-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run every active pipeline of the project on its default branch
         * @description One run per active pipeline (cause run_all), on the branch of its first git material at its head commit (resolved with git ls-remote, with stored SCM credentials; revision null when it cannot be resolved or the pipeline has no git material); the runs are created in one transaction and their first jobs queued.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1ProjectsSlugRunAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Names and timestamps of the project's secrets (never values)
         * @description Minimum access: maintainer.
         */
        get: operations["getApiV1ProjectsSlugSecrets"];
        put?: never;
        /**
         * Set a project secret
         * @description 201 when the name is new, 200 when its value was replaced. Values are non-empty and at most 65536 bytes; they are encrypted at rest.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1ProjectsSlugSecrets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/secrets/{name}": {
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
         * Delete a project secret
         * @description Minimum access: maintainer.
         */
        delete: operations["deleteApiV1ProjectsSlugSecretsName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-poll every git material of the project now
         * @description Polls (git ls-remote) each git material of the project's active pipelines in the background, whatever the polling settings. A new revision starts one run (cause `poll`) in each pipeline watching it that has not run for that revision. The first look at a material only records its head. `materials` is how many repository/branch pairs are polled.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1ProjectsSlugSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{slug}/vsm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's value-stream map
         * @description Nodes: one per git material (repository and branch; pipelines watching the same one share it) and one per active pipeline with its latest run and `has_services`. Edges: git material → pipeline, and upstream pipeline → downstream pipeline with the stage and status that trigger it.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1ProjectsSlugVsm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or update a project from a pipeline bundle
         * @description Apply is a full declaration: new pipelines are created, changed ones get a new version, pipelines missing from the bundle are archived (their runs stay readable). Applying the same bundle again changes nothing, timestamps included. Invalid bundles are 400 with every problem named by path, line and column (and file, for multipart).
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1ProjectsApply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List runs, newest first
         * @description `project` takes a slug, `pipeline` a pipeline UUID; a filter that names nothing matches no run. Page with `offset`, or for deep paging pass the last run id of a page as `cursor` (keyset: run 90,000 costs what run 50 does); `offset` stays 0 then. Any other query parameter, or a value out of range, is 400.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1Runs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run with its stages, job runs (every attempt) and their last log lines
         * @description Minimum access: viewer.
         */
        get: operations["getApiV1RunsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a run of a fork's pull request that waits for a maintainer
         * @description A run built from a fork's pull request waits (`queued`, its first jobs `awaiting_approval`, RunDetail's `fork.reason` says why) until a maintainer approves it, unless the project's fork policy trusts the author or runs forks at once. Approving queues its jobs for agents; their secrets stay withheld unless the project's fork policy had `allow_secrets: true` when the run was created. Who approved (and the comment) is kept on the run and in the audit log (`run.approve`). The body is optional. 409 for a run that is not waiting for approval or already finished.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1RunsIdApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/artifacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's artifacts
         * @description With `download=true` each artifact gets `download_url`, an absolute link valid for about 5 minutes that needs no credentials: the server's own HMAC-signed route with the filesystem backend, a presigned GET of the object with the S3 backend.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1RunsIdArtifacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run that has not finished
         * @description Jobs not yet started are canceled at once; running jobs are asked to stop and the run becomes `canceled` when their agents report. `status` is the run's status after the request. A finished run is 409.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1RunsIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/logs/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a run's log (Server-Sent Events)
         * @description Each event is `event: log`, `id: <cursor>` and `data:` one LogLine JSON (`job_run_id`, its alias `job_id`, `seq`, `stream`, `at`, `text`). Lines come in the order they were stored; each job run's lines in `seq` order. Send `Last-Event-ID: <cursor>` to resume after that event. Keep-alives are SSE comments every 15 s. The stream ends once the run is terminal and every stored line was sent (at once for a finished run, after replaying it); its last event is `event: end` with `id:` the last cursor and `data:` `{"status": <the run's terminal status>}`. A request with `Last-Event-ID` for a finished run that has no line after that cursor answers 204, so a standard EventSource stops reconnecting. When the stream cannot continue (the database is unavailable) it sends `event: error` with `{error}` and drops the connection instead of ending cleanly: reconnect with `Last-Event-ID`. A client whose `Accept-Encoding` accepts gzip (browsers' EventSource does) gets the same stream with `Content-Encoding: gzip`, flushed after every write so each event can be decoded as it arrives; other clients get it unencoded. Responses carry `Vary: Accept-Encoding`.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1RunsIdLogsStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a new run with the same pipeline version, revision and parameters
         * @description The new run has cause `rerun` and the next counter of the pipeline. Any run may be rerun, finished or not; a run of an archived pipeline is 409.
         *
         *     Minimum access: maintainer.
         */
        post: operations["postApiV1RunsIdRerun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's service runs
         * @description One row per job run and service, in start order. A service goes `starting` → `ready` → `stopped`, or to `failed` (final) when it was not ready in time, exited or could not start.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1RunsIdServices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's unit-test results
         * @description Aggregated from the JUnit XML files named by the jobs' `test_reports`, counting the latest attempt of each job. Totals are complete; `cases` lists at most `limit` cases (default 1000), failures and errors first, optionally only those with `status`. A run without reports has zero totals.
         *
         *     Minimum access: viewer.
         */
        get: operations["getApiV1RunsIdTests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schema/pipeline-bundle.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JSON Schema (2020-12) of a pipeline bundle
         * @description Public, like a published file format: editors and linters fetch it without credentials. `$defs.pipeline` is the single-file form used by the multipart apply.
         *
         *     Minimum access: public.
         */
        get: operations["getApiV1SchemaPipelineBundleJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/bitbucket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a Bitbucket Cloud webhook delivery
         * @description Bitbucket Cloud `repo:push` (every ref change of the push) and `pullrequest:created` / `pullrequest:updated`. Signed with `X-Hub-Signature: sha256=<hex>`; delivery id `X-Request-UUID`. The secret is the project secret `WEBHOOK_SECRET` of each project whose git materials name the repository (any URL spelling), else the global secret (CI_CONFIG `webhooks.<host>.secret`, else `CI_WEBHOOK_SECRET`). One run (cause `webhook`) starts in every pipeline of a verified project whose material watches the branch (the target branch for pull requests; any branch for tags) and whose `on` admits the event, at the pushed revision. `[skip ci]`, `[ci skip]` or `[no ci]` in the head commit message skips a push. A redelivered delivery id, or a revision a pipeline already ran for, starts nothing. 401: missing or wrong signature, or a repository no project watches while no global secret is set; 400: no event header or an unreadable body; 413: body over 1048576 bytes. Every delivery is recorded (GET /api/v1/admin/webhooks).
         *
         *     Minimum access: public.
         */
        post: operations["postApiWebhooksBitbucket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a GitHub webhook delivery
         * @description GitHub `push` (branches; tags as `refs/tags/…`), `pull_request` (opened, reopened, synchronize) and `ping`. Signed with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`; delivery id `X-GitHub-Delivery`. The secret is the project secret `WEBHOOK_SECRET` of each project whose git materials name the repository (any URL spelling), else the global secret (CI_CONFIG `webhooks.<host>.secret`, else `CI_WEBHOOK_SECRET`). One run (cause `webhook`) starts in every pipeline of a verified project whose material watches the branch (the target branch for pull requests; any branch for tags) and whose `on` admits the event, at the pushed revision. `[skip ci]`, `[ci skip]` or `[no ci]` in the head commit message skips a push. A redelivered delivery id, or a revision a pipeline already ran for, starts nothing. 401: missing or wrong signature, or a repository no project watches while no global secret is set; 400: no event header or an unreadable body; 413: body over 1048576 bytes. Every delivery is recorded (GET /api/v1/admin/webhooks).
         *
         *     Minimum access: public.
         */
        post: operations["postApiWebhooksGithub"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/gitlab": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a GitLab webhook delivery
         * @description GitLab `Push Hook`, `Tag Push Hook` and `Merge Request Hook` (open, reopen, update with new commits). Verified by `X-Gitlab-Token` (compared in constant time); delivery id `X-Gitlab-Event-UUID`. The secret is the project secret `WEBHOOK_SECRET` of each project whose git materials name the repository (any URL spelling), else the global secret (CI_CONFIG `webhooks.<host>.secret`, else `CI_WEBHOOK_SECRET`). One run (cause `webhook`) starts in every pipeline of a verified project whose material watches the branch (the target branch for pull requests; any branch for tags) and whose `on` admits the event, at the pushed revision. `[skip ci]`, `[ci skip]` or `[no ci]` in the head commit message skips a push. A redelivered delivery id, or a revision a pipeline already ran for, starts nothing. 401: missing or wrong signature, or a repository no project watches while no global secret is set; 400: no event header or an unreadable body; 413: body over 1048576 bytes. Every delivery is recorded (GET /api/v1/admin/webhooks).
         *
         *     Minimum access: public.
         */
        post: operations["postApiWebhooksGitlab"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/callback/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Completes sign-in
         * @description Completes sign-in: 302 to the original target with the session cookie. The first login creates the user; the role comes from the provider’s role claim and map (re-evaluated at every login when a claim is configured). 400 for a missing, tampered or expired sign-in state; 401 when the provider refuses; 403 when no role applies and the default role is `none`; 503 when the provider is unreachable.
         *
         *     Minimum access: public.
         */
        get: operations["getAuthCallbackProvider"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Starts sign-in
         * @description Starts sign-in: 302 to the identity provider (authorization code with PKCE S256, state and nonce kept in a sealed 10-minute cookie). `oidc` means the first provider; `local` redirects to the web login form. `next` (a path on this server) is where the callback finally redirects.
         *
         *     Minimum access: public.
         */
        get: operations["getAuthLoginProvider"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login/local": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * POST /auth/login/local
         * @description Signs in with a local account and sets the `svc_session` cookie (HttpOnly, Path=/, SameSite=Lax, Secure behind https; ends after 12 h idle or 7 days). Answers the User. 401 for a wrong username or password; 429 with Retry-After after 10 failures per username or 50 per client address within 15 minutes; 403 when sent by a page of another origin; 400 when local accounts are disabled.
         *
         *     Minimum access: public.
         */
        post: operations["postAuthLoginLocal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ends the session (server side) and drops the cookie
         * @description Ends the session (server side) and drops the cookie; 204 also without a session.
         *
         *     Minimum access: public.
         */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GET /auth/providers
         * @description Minimum access: public.
         */
        get: operations["getAuthProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
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
        /** Prometheus metrics */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database is reachable and migrated */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Build information */
        get: operations["getVersion"];
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
    getWellKnownJwksJson: {
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
                        keys: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
        };
    };
    getWellKnownOpenidConfiguration: {
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
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getApiV1AccountApiTokens: {
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
                        tokens: {
                            created_at: string;
                            expires_at: null | string;
                            id: string;
                            last_used_at: null | string;
                            name: string;
                            prefix: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AccountApiTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expires_at?: null | string;
                    name: string;
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
                        created_at: string;
                        expires_at: null | string;
                        id: string;
                        last_used_at: null | string;
                        name: string;
                        prefix: string;
                        secret: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1AccountApiTokensId: {
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
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AccountPreferences: {
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
                        preferences: {
                            [key: string]: unknown;
                        };
                        updated_at: null | string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1AccountPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    preferences: {
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
                content?: never;
            };
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminAgentsIdRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
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
                        id: string;
                        name: string;
                        requeued_job_runs: number;
                        /** @enum {boolean} */
                        revoked: true;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminAgentsRegistrationToken: {
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
                        /** Format: date-time */
                        rotated_at: string;
                        /** @description the new registration token; shown only in this response */
                        token: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminApproverGroups: {
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
                        groups: {
                            /** @description user names or e-mail addresses */
                            members: string[];
                            name: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1AdminApproverGroupsName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the name gates write in approval.approver_groups (not maintainer or admin: those are roles) */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description user names or e-mail addresses (any case) */
                    members: string[];
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
                        /** @description user names or e-mail addresses */
                        members: string[];
                        name: string;
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
                        /** @description user names or e-mail addresses */
                        members: string[];
                        name: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1AdminApproverGroupsName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
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
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminAudit: {
        parameters: {
            query?: {
                action?: string;
                actor?: string;
                limit?: number;
                offset?: number;
                since?: string;
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
                        entries: {
                            action: string;
                            actor: string;
                            at: string;
                            details: {
                                [key: string]: unknown;
                            };
                            id: string;
                            target: null | string;
                        }[];
                        limit: number;
                        offset: number;
                        total: number;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminAuthProviders: {
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
                        providers: {
                            client_id: string;
                            created_at: null | string;
                            default_role: string;
                            display: string;
                            has_client_secret: boolean;
                            id: string;
                            issuer: string;
                            name: string;
                            role_claim: null | string;
                            role_map: {
                                [key: string]: string[];
                            };
                            scopes: string[];
                            source: string;
                            updated_at: null | string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminAuthProviders: {
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
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        client_id: string;
                        created_at: null | string;
                        default_role: string;
                        display: string;
                        has_client_secret: boolean;
                        id: string;
                        issuer: string;
                        name: string;
                        role_claim: null | string;
                        role_map: {
                            [key: string]: string[];
                        };
                        scopes: string[];
                        source: string;
                        updated_at: null | string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1AdminAuthProvidersId: {
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
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminAuthProvidersReload: {
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
                        providers: {
                            client_id: string;
                            created_at: null | string;
                            default_role: string;
                            display: string;
                            has_client_secret: boolean;
                            id: string;
                            issuer: string;
                            name: string;
                            role_claim: null | string;
                            role_map: {
                                [key: string]: string[];
                            };
                            scopes: string[];
                            source: string;
                            updated_at: null | string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminHealth: {
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
                        agents: {
                            busy: number;
                            /** @description job slots of agents not offline */
                            capacity: number;
                            offline: number;
                            online: number;
                            /** @description database or memory */
                            source: string;
                            total: number;
                        };
                        /** Format: date-time */
                        checked_at: string;
                        database: {
                            dialect: string;
                            error?: string;
                            latency_ms: number | null;
                            ok: boolean;
                        };
                        scheduler: {
                            holder: string;
                            last_cron_fired_at: string | null;
                            last_error: string | null;
                            last_tick_at: string | null;
                            leader: boolean;
                            running: boolean;
                            tick_interval_ms: number;
                            tick_lag_ms: number | null;
                        };
                        /** @description ok or degraded */
                        status: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminIntegrations: {
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
                        integrations: {
                            /** @description a global secret is set or a project has its own WEBHOOK_SECRET */
                            configured: boolean;
                            deliveries: {
                                accepted: number;
                                ignored: number;
                                last_received_at: string | null;
                                rejected: number;
                            };
                            delivery_header: string;
                            display: string;
                            event_header: string;
                            /** @description events that can start runs */
                            events: string[];
                            global_secret_configured: boolean;
                            /** @description github, gitlab or bitbucket */
                            host: string;
                            /** @description projects having a WEBHOOK_SECRET project secret */
                            projects_with_secret: number;
                            signature_header: string;
                            /** @description the payload URL to register at the host */
                            webhook_url: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminIntegrationsHost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                host: string;
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
                        /** @description a global secret is set or a project has its own WEBHOOK_SECRET */
                        configured: boolean;
                        deliveries: {
                            accepted: number;
                            ignored: number;
                            last_received_at: string | null;
                            rejected: number;
                        };
                        delivery_header: string;
                        display: string;
                        event_header: string;
                        /** @description events that can start runs */
                        events: string[];
                        global_secret_configured: boolean;
                        /** @description github, gitlab or bitbucket */
                        host: string;
                        /** @description projects having a WEBHOOK_SECRET project secret */
                        projects_with_secret: number;
                        signature_header: string;
                        /** @description the payload URL to register at the host */
                        webhook_url: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminOidcKeys: {
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
                        keys: {
                            /** @description signs new tokens */
                            active: boolean;
                            alg: string;
                            created_at: string;
                            kid: string;
                            /** @description listed in the JWKS (its tokens still verify) */
                            published: boolean;
                            retired_at: string | null;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminOidcKeysRotate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    mode?: "graceful" | "emergency";
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
                        /** @description signs new tokens */
                        active: boolean;
                        alg: string;
                        created_at: string;
                        kid: string;
                        /** @description listed in the JWKS (its tokens still verify) */
                        published: boolean;
                        retired_at: string | null;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminRetention: {
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
                        /** @description time between sweeps (CI_CONFIG retention.interval) */
                        interval: string;
                        last_run: {
                            duration_ms: number;
                            errors: string[];
                            /** Format: date-time */
                            finished_at: string;
                            removed: {
                                artifact_bytes: number;
                                artifacts: number;
                                blob_prefixes: number;
                                cache_bytes: number;
                                cache_entries: number;
                                dropped_log_partitions: number;
                                log_archives: number;
                                log_lines: number;
                                runs: number;
                            };
                            /** Format: date-time */
                            started_at: string;
                        } | null;
                        last_run_at: string | null;
                        log_archive: {
                            /** @description archive a finished job’s log this long after it finished (a duration) */
                            after: string;
                            /** @description `after` in whole days */
                            after_days: number;
                            enabled: boolean;
                        };
                        quotas: {
                            artifact_bytes: number;
                            artifact_days: number;
                            cache_bytes_per_project: number;
                            cache_idle_days: number;
                            log_bytes: number;
                            log_days: number;
                            run_days: number;
                            runs_per_pipeline: number;
                        };
                        totals: {
                            artifact_bytes: number;
                            artifacts: number;
                            cache_bytes: number;
                            cache_entries: number;
                            log_archive_bytes: number;
                            log_archives: number;
                            log_lines: number;
                            runs: number;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminScmCredentials: {
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
                        credentials: {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** @description always true; the secret itself is never returned */
                            has_secret: boolean;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            /** @description normalised host[/path] it covers */
                            prefix: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description the URL as given */
                            url: string;
                            username: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminScmCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    secret: string;
                    url: string;
                    username?: string;
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
                        /** Format: date-time */
                        created_at: string;
                        description: string | null;
                        /** @description always true; the secret itself is never returned */
                        has_secret: boolean;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        id: string;
                        /** @description normalised host[/path] it covers */
                        prefix: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description the URL as given */
                        url: string;
                        username: string;
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
                        /** Format: date-time */
                        created_at: string;
                        description: string | null;
                        /** @description always true; the secret itself is never returned */
                        has_secret: boolean;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        id: string;
                        /** @description normalised host[/path] it covers */
                        prefix: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description the URL as given */
                        url: string;
                        username: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1AdminScmCredentialsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminSecrets: {
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
                        secrets: {
                            created_at: string;
                            name: string;
                            updated_at: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    value: string;
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
                        created_at: string;
                        name: string;
                        updated_at: string;
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
                        created_at: string;
                        name: string;
                        updated_at: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1AdminSecretsName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
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
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminServiceAccounts: {
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
                        service_accounts: {
                            created_at: string;
                            id: string;
                            name: string;
                            role: string;
                        }[];
                        total: number;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminServiceAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    role: "viewer" | "maintainer" | "admin";
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
                        created_at: string;
                        id: string;
                        name: string;
                        role: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminServiceAccountsIdTokens: {
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
                        tokens: {
                            created_at: string;
                            expires_at: null | string;
                            id: string;
                            last_used_at: null | string;
                            name: string;
                            prefix: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminServiceAccountsIdTokens: {
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
                    expires_at?: null | string;
                    name: string;
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
                        created_at: string;
                        expires_at: null | string;
                        id: string;
                        last_used_at: null | string;
                        name: string;
                        prefix: string;
                        secret: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1AdminServiceAccountsIdTokensTokenId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                tokenId: string;
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
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminStorage: {
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
                        /** @enum {unknown} */
                        backend: "local" | "s3";
                        /** @description local: absolute folder holding artifacts/, caches/, logs/ */
                        path?: string;
                        /** @description true when this configuration differs from the backend the running process opened */
                        restart_required: boolean;
                        s3?: {
                            access_key_id: string | null;
                            bucket: string;
                            endpoint: string | null;
                            force_path_style: boolean;
                            prefix: string;
                            region: string;
                            secret_access_key_set: boolean;
                        };
                        /**
                         * @description `default`: CI_DATA_DIR; `config`: CI_CONFIG `storage`; `stored`: set by PUT
                         * @enum {unknown}
                         */
                        source: "default" | "config" | "stored";
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1AdminStorage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description `local` or `s3` */
                    backend: string;
                    /** @description local: an absolute folder */
                    path?: string;
                    s3?: {
                        access_key_id?: string;
                        bucket: string;
                        endpoint?: string;
                        force_path_style?: boolean;
                        prefix?: string;
                        region?: string;
                        secret_access_key?: string;
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
                        /** @enum {unknown} */
                        backend: "local" | "s3";
                        /** @description local: absolute folder holding artifacts/, caches/, logs/ */
                        path?: string;
                        /** @description true when this configuration differs from the backend the running process opened */
                        restart_required: boolean;
                        s3?: {
                            access_key_id: string | null;
                            bucket: string;
                            endpoint: string | null;
                            force_path_style: boolean;
                            prefix: string;
                            region: string;
                            secret_access_key_set: boolean;
                        };
                        /**
                         * @description `default`: CI_DATA_DIR; `config`: CI_CONFIG `storage`; `stored`: set by PUT
                         * @enum {unknown}
                         */
                        source: "default" | "config" | "stored";
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1AdminStorage: {
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
                        /** @enum {unknown} */
                        backend: "local" | "s3";
                        /** @description local: absolute folder holding artifacts/, caches/, logs/ */
                        path?: string;
                        /** @description true when this configuration differs from the backend the running process opened */
                        restart_required: boolean;
                        s3?: {
                            access_key_id: string | null;
                            bucket: string;
                            endpoint: string | null;
                            force_path_style: boolean;
                            prefix: string;
                            region: string;
                            secret_access_key_set: boolean;
                        };
                        /**
                         * @description `default`: CI_DATA_DIR; `config`: CI_CONFIG `storage`; `stored`: set by PUT
                         * @enum {unknown}
                         */
                        source: "default" | "config" | "stored";
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminUsers: {
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
                        total: number;
                        users: {
                            created_at: string;
                            email: null | string;
                            id: string;
                            role: string;
                            username: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1AdminUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: null | string;
                    password: string;
                    role: "viewer" | "maintainer" | "admin";
                    username: string;
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
                        created_at: string;
                        email: null | string;
                        id: string;
                        role: string;
                        username: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1AdminUsersIdRole: {
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
                    role: "viewer" | "maintainer" | "admin";
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
                        created_at: string;
                        email: null | string;
                        id: string;
                        role: string;
                        username: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminWebhooks: {
        parameters: {
            query: {
                limit: number;
                offset: number;
                scm?: "github" | "gitlab" | "bitbucket";
                status?: "accepted" | "rejected" | "ignored";
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
                        deliveries: {
                            /** @description the host's delivery id */
                            delivery_id: string | null;
                            /** @description the host's event name */
                            event: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            reason: string;
                            /** Format: date-time */
                            received_at: string;
                            ref: string | null;
                            repository: string | null;
                            revision: string | null;
                            run_ids: string[];
                            /** @description github, gitlab or bitbucket */
                            scm: string;
                            /** @description accepted (runs started), rejected (4xx) or ignored (verified, nothing to run) */
                            status: string;
                            status_code: number;
                        }[];
                        limit: number;
                        offset: number;
                        total: number;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AdminWebhooksId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
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
                        /** @description the host's delivery id */
                        delivery_id: string | null;
                        /** @description the host's event name */
                        event: string;
                        /** @description request headers; signatures, tokens and cookies are `[redacted]` */
                        headers: {
                            [key: string]: string;
                        };
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        id: string;
                        /** @description the body as text, credentials in URLs masked */
                        payload: string;
                        payload_bytes: number;
                        /** @description only the first 64 KiB are kept */
                        payload_truncated: boolean;
                        reason: string;
                        /** Format: date-time */
                        received_at: string;
                        ref: string | null;
                        repository: string | null;
                        revision: string | null;
                        run_ids: string[];
                        /** @description github, gitlab or bitbucket */
                        scm: string;
                        /** @description accepted (runs started), rejected (4xx) or ignored (verified, nothing to run) */
                        status: string;
                        status_code: number;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1Agents: {
        parameters: {
            query: {
                limit: number;
                offset: number;
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
                        agents: {
                            capacity: number;
                            hostname: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            /** Format: date-time */
                            last_heartbeat_at: string | null;
                            name: string;
                            /** Format: date-time */
                            registered_at: string;
                            /**
                             * Format: date-time
                             * @description when an admin revoked the agent (POST /api/v1/admin/agents/{id}/revoke); null otherwise
                             */
                            revoked_at: string | null;
                            running_jobs: {
                                job_name: string;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                job_run_id: string;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                run_id: string;
                                /** Format: date-time */
                                started_at: string | null;
                                /** @description `queued` (assigned, not started yet) or `running` */
                                status: string;
                            }[];
                            /** @enum {unknown} */
                            status: "online" | "busy" | "offline";
                            tags: string[];
                            version: string;
                        }[];
                        limit: number;
                        offset: number;
                        total: number;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1AgentsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
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
                        capacity: number;
                        hostname: string;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        id: string;
                        /** Format: date-time */
                        last_heartbeat_at: string | null;
                        name: string;
                        /** Format: date-time */
                        registered_at: string;
                        /**
                         * Format: date-time
                         * @description when an admin revoked the agent (POST /api/v1/admin/agents/{id}/revoke); null otherwise
                         */
                        revoked_at: string | null;
                        running_jobs: {
                            job_name: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            job_run_id: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            run_id: string;
                            /** Format: date-time */
                            started_at: string | null;
                            /** @description `queued` (assigned, not started yet) or `running` */
                            status: string;
                        }[];
                        /** @enum {unknown} */
                        status: "online" | "busy" | "offline";
                        tags: string[];
                        version: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ArtifactsIdDownload: {
        parameters: {
            query: {
                /** @description unix seconds */
                expires: number;
                /** @description hex HMAC-SHA256 */
                signature: string;
            };
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the artifact bytes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1JobRunsIdApprove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description recorded with the decision */
                    comment?: string;
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
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        job_run_id: string;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        run_id: string;
                        /** @enum {unknown} */
                        run_status: "queued" | "running" | "success" | "failed" | "canceled";
                        /** @description the job run's status after the decision */
                        status: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1JobRunsIdReject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description recorded with the decision */
                    comment?: string;
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
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        job_run_id: string;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        run_id: string;
                        /** @enum {unknown} */
                        run_status: "queued" | "running" | "success" | "failed" | "canceled";
                        /** @description the job run's status after the decision */
                        status: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1JobRunsIdRerun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attempt: number;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        job_run_id: string;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        run_id: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1Me: {
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
                        created_at: string;
                        email: null | string;
                        id: string;
                        role: string;
                        username: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1MePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
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
            /** @description Not signed in: no session and no valid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1PipelinesIdTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description branch, tag or commit; default the branch of the pipeline's first git material */
                    git_ref?: string;
                    /** @description merged over the pipeline's `parameters:` block; names are environment variable names */
                    parameters?: {
                        [key: string]: string;
                    };
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
                        counter: number;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        run_id: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1PipelinesIdYaml: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
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
                        reconstructed: boolean;
                        yaml: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1Plugins: {
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
                        plugins: {
                            /** @description JSON Schema of the configuration the plugin takes */
                            config_schema: {
                                [key: string]: unknown;
                            };
                            description: string;
                            /** @enum {unknown} */
                            kind: "material" | "task" | "test-report" | "artifact" | "cache" | "notifier";
                            /** @description unique in the catalog */
                            name: string;
                            /**
                             * @description `builtin`, or `config` when a manifest file from `plugins.manifest_dirs` supplied it
                             * @enum {unknown}
                             */
                            source: "builtin" | "config";
                            version: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1Projects: {
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
                        projects: {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            name: string;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        /** Format: date-time */
                        created_at: string;
                        description: string | null;
                        name: string;
                        pipelines: {
                            /** @description null: runs of the pipeline go in parallel */
                            concurrency: {
                                /** @description a group shared with other pipelines */
                                group: string | null;
                                /** @description serial or cancel-superseded */
                                mode: string;
                            } | null;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            /** @description the pipeline's jobs in declaration order (a summary; the YAML route has the text) */
                            jobs: {
                                /** @description the container image (or the plugin `uses`) */
                                image: string | null;
                                /** @description script: runs commands; gate: a manual approval; plugin: `uses` an image */
                                kind: "script" | "gate" | "plugin";
                                /** @description how many matrix cells (0: no matrix) */
                                matrix: number;
                                name: string;
                                needs: string[];
                                stage: string;
                            }[];
                            latest_run: {
                                /** @description manual, rerun, run_all, cron, webhook, poll or upstream */
                                cause: string;
                                /** @description per pipeline, from 1, consecutive */
                                counter: number;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                finished_at: string | null;
                                git_ref: string | null;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                id: string;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                pipeline_id: string;
                                pipeline_name: string;
                                project_slug: string;
                                revision: string | null;
                                /** Format: date-time */
                                started_at: string | null;
                                /** @enum {unknown} */
                                status: "queued" | "running" | "success" | "failed" | "canceled";
                                /** @description the newer run that canceled this one under concurrency: cancel-superseded */
                                superseded_by: {
                                    counter: number;
                                    pipeline_name: string;
                                    /**
                                     * Format: uuid
                                     * @description a UUID
                                     */
                                    run_id: string;
                                } | null;
                                /** @description why an unfinished run is not doing anything; null when it is not waiting (a queued run with no reason waits for an agent) */
                                waiting: {
                                    /** @description approval: the gate waiting */
                                    job: string | null;
                                    /** @description the same in one sentence, e.g. "waits for run #12 to finish (concurrency: serial)" */
                                    message: string;
                                    /** @description concurrency: held back by a serial concurrency group until run_id finishes (the run is queued and has not started); fork_approval: a pull request from a fork waits for a maintainer (POST /api/v1/runs/{id}/approve); approval: nothing runs and a manual gate (job) awaits approval */
                                    reason: "concurrency" | "fork_approval" | "approval";
                                    /** @description concurrency: the run it waits for */
                                    run_id: string | null;
                                } | null;
                            } | null;
                            materials: ({
                                /** @description sha256 of what the material watches */
                                fingerprint: string;
                                /** @description git, upstream or cron */
                                kind: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            name: string;
                            /** @description the pipeline's declared parameters with their defaults (a trigger's parameters override them) */
                            parameters: {
                                [key: string]: string;
                            };
                            stages: string[];
                            /** @description gocdnext's pipeline `when` (empty lists: any); null when the pipeline has none */
                            when: {
                                branch: string[];
                                event: string[];
                                paths: string[];
                            } | null;
                        }[];
                        /** @description the 20 newest runs of the project */
                        recent_runs: {
                            /** @description manual, rerun, run_all, cron, webhook, poll or upstream */
                            cause: string;
                            /** @description per pipeline, from 1, consecutive */
                            counter: number;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            finished_at: string | null;
                            git_ref: string | null;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            pipeline_id: string;
                            pipeline_name: string;
                            project_slug: string;
                            revision: string | null;
                            /** Format: date-time */
                            started_at: string | null;
                            /** @enum {unknown} */
                            status: "queued" | "running" | "success" | "failed" | "canceled";
                            /** @description the newer run that canceled this one under concurrency: cancel-superseded */
                            superseded_by: {
                                counter: number;
                                pipeline_name: string;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                run_id: string;
                            } | null;
                            /** @description why an unfinished run is not doing anything; null when it is not waiting (a queued run with no reason waits for an agent) */
                            waiting: {
                                /** @description approval: the gate waiting */
                                job: string | null;
                                /** @description the same in one sentence, e.g. "waits for run #12 to finish (concurrency: serial)" */
                                message: string;
                                /** @description concurrency: held back by a serial concurrency group until run_id finishes (the run is queued and has not started); fork_approval: a pull request from a fork waits for a maintainer (POST /api/v1/runs/{id}/approve); approval: nothing runs and a manual gate (job) awaits approval */
                                reason: "concurrency" | "fork_approval" | "approval";
                                /** @description concurrency: the run it waits for */
                                run_id: string | null;
                            } | null;
                        }[];
                        slug: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1ProjectsSlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugCaches: {
        parameters: {
            query: {
                limit: number;
                offset: number;
            };
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        caches: {
                            /** Format: date-time */
                            created_at: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            key: string;
                            /** Format: date-time */
                            last_used_at?: string;
                            size_bytes: number;
                        }[];
                        limit: number;
                        offset: number;
                        total: number;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1ProjectsSlugCachesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugCommitStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        /** @description the API root in use: https://api.github.com, https://gitlab.com/api/v4 or https://api.bitbucket.org/2.0 unless set */
                        api_url: string | null;
                        /** @description the status name is <context_prefix>/<project slug>/<pipeline name> (default ci/gocdnext, as gocdnext) */
                        context_prefix: string;
                        /** @description whether the project secret COMMIT_STATUS_TOKEN is set; without it the SCM credential covering the repository is used */
                        has_token: boolean;
                        /** @description null while the project reports nowhere */
                        host: ("github" | "gitlab" | "bitbucket") | null;
                        /** @description owner/name (GitLab: the project path); null: taken from the pipeline's git material URL */
                        repository: string | null;
                        updated_at: string | null;
                        /** @description Bitbucket: the account of an app password (Basic auth); without it the token is sent as Bearer */
                        username: string | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1ProjectsSlugCommitStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    api_url?: string | null;
                    context_prefix?: string;
                    /**
                     * @description the forge: GitHub (commit statuses), GitLab (commit statuses), Bitbucket Cloud (build statuses)
                     * @enum {unknown}
                     */
                    host: "github" | "gitlab" | "bitbucket";
                    repository?: string | null;
                    /** @description write-only; stored encrypted as the project secret COMMIT_STATUS_TOKEN; left out: the stored token stays */
                    token?: string;
                    username?: string | null;
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
                        /** @description the API root in use: https://api.github.com, https://gitlab.com/api/v4 or https://api.bitbucket.org/2.0 unless set */
                        api_url: string | null;
                        /** @description the status name is <context_prefix>/<project slug>/<pipeline name> (default ci/gocdnext, as gocdnext) */
                        context_prefix: string;
                        /** @description whether the project secret COMMIT_STATUS_TOKEN is set; without it the SCM credential covering the repository is used */
                        has_token: boolean;
                        /** @description null while the project reports nowhere */
                        host: ("github" | "gitlab" | "bitbucket") | null;
                        /** @description owner/name (GitLab: the project path); null: taken from the pipeline's git material URL */
                        repository: string | null;
                        updated_at: string | null;
                        /** @description Bitbucket: the account of an app password (Basic auth); without it the token is sent as Bearer */
                        username: string | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1ProjectsSlugCommitStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugConfigRepo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        applied_revision: string | null;
                        /** @description the branch whose head defines the pipelines */
                        branch: string;
                        checked_revision: string | null;
                        error: string | null;
                        /** @description the folder of pipeline files (its *.yaml/*.yml), or one file */
                        path: string;
                        /** @description how often the branch is checked; "" webhooks only */
                        poll_interval: string;
                        status: "pending" | "applied" | "failed";
                        synced_at: string | null;
                        /** @description the repository (credentials from the SCM credential settings) */
                        url: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1ProjectsSlugConfigRepo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description default main */
                    branch?: string;
                    /** @description display name of a project created here */
                    name?: string;
                    /** @description the folder (default .gocdnext) or one file of pipeline files; ci-bundle.yaml at the repository root, our {project, pipelines} bundle, is read beside it */
                    path?: string;
                    /** @description a duration (default 1m); "" turns polling off */
                    poll_interval?: string;
                    url: string;
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
                        applied_revision: string | null;
                        /** @description the branch whose head defines the pipelines */
                        branch: string;
                        checked_revision: string | null;
                        error: string | null;
                        /** @description the folder of pipeline files (its *.yaml/*.yml), or one file */
                        path: string;
                        /** @description how often the branch is checked; "" webhooks only */
                        poll_interval: string;
                        status: "pending" | "applied" | "failed";
                        synced_at: string | null;
                        /** @description the repository (credentials from the SCM credential settings) */
                        url: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1ProjectsSlugConfigRepo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugCrons: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        crons: {
                            enabled: boolean;
                            /** @description 5-field cron expression or @hourly/@daily/…, evaluated in UTC */
                            expression: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            name: string;
                            /** @description next firing (UTC); null when disabled */
                            next_run_at: string | null;
                            /** @description pipelines it runs; empty means every active pipeline */
                            pipeline_ids: string[];
                        }[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1ProjectsSlugCrons: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled?: boolean;
                    expression: string;
                    name: string;
                    pipeline_ids?: string[];
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
                        enabled: boolean;
                        /** @description 5-field cron expression or @hourly/@daily/…, evaluated in UTC */
                        expression: string;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        id: string;
                        name: string;
                        /** @description next firing (UTC); null when disabled */
                        next_run_at: string | null;
                        /** @description pipelines it runs; empty means every active pipeline */
                        pipeline_ids: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1ProjectsSlugCronsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled?: boolean;
                    expression?: string;
                    name?: string;
                    pipeline_ids?: string[];
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
                        enabled: boolean;
                        /** @description 5-field cron expression or @hourly/@daily/…, evaluated in UTC */
                        expression: string;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        id: string;
                        name: string;
                        /** @description next firing (UTC); null when disabled */
                        next_run_at: string | null;
                        /** @description pipelines it runs; empty means every active pipeline */
                        pipeline_ids: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1ProjectsSlugCronsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugForkPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        /** @description whether runs of fork pull requests get the project's and global secrets (default false) */
                        allow_secrets: boolean;
                        /** @description approve: the run waits for a maintainer (POST /runs/{id}/approve); run: it runs at once; skip: no run */
                        on_fork: "approve" | "run" | "skip";
                        /** @description host accounts (GitHub login, GitLab username, Bitbucket nickname; any case) whose fork pull requests run without approval */
                        trusted_authors: string[];
                        /** @description when it was last set; null while the project has the default */
                        updated_at: string | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1ProjectsSlugForkPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description whether runs of fork pull requests get the project's and global secrets (default false) */
                    allow_secrets?: boolean;
                    /** @description approve: the run waits for a maintainer (POST /runs/{id}/approve); run: it runs at once; skip: no run */
                    on_fork?: "approve" | "run" | "skip";
                    /** @description host accounts (GitHub login, GitLab username, Bitbucket nickname; any case) whose fork pull requests run without approval */
                    trusted_authors?: string[];
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
                        /** @description whether runs of fork pull requests get the project's and global secrets (default false) */
                        allow_secrets: boolean;
                        /** @description approve: the run waits for a maintainer (POST /runs/{id}/approve); run: it runs at once; skip: no run */
                        on_fork: "approve" | "run" | "skip";
                        /** @description host accounts (GitHub login, GitLab username, Bitbucket nickname; any case) whose fork pull requests run without approval */
                        trusted_authors: string[];
                        /** @description when it was last set; null while the project has the default */
                        updated_at: string | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugLogArchive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        effective: {
                            /** @description archive a finished job’s log this long after it finished (a duration) */
                            after: string;
                            /** @description `after` in whole days */
                            after_days: number;
                            enabled: boolean;
                        };
                        /** @description null: inherit the global setting */
                        override: {
                            /** @description archive a finished job’s log this long after it finished (a duration) */
                            after: string;
                            /** @description `after` in whole days */
                            after_days: number;
                            enabled: boolean;
                        } | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1ProjectsSlugLogArchive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    override: {
                        after?: string;
                        after_days?: number;
                        enabled: boolean;
                    } | null;
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
                        effective: {
                            /** @description archive a finished job’s log this long after it finished (a duration) */
                            after: string;
                            /** @description `after` in whole days */
                            after_days: number;
                            enabled: boolean;
                        };
                        /** @description null: inherit the global setting */
                        override: {
                            /** @description archive a finished job’s log this long after it finished (a duration) */
                            after: string;
                            /** @description `after` in whole days */
                            after_days: number;
                            enabled: boolean;
                        } | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugNotifications: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        channels: {
                            events: ("run.started" | "run.succeeded" | "run.failed" | "run.canceled" | "run.fixed" | "gate.waiting")[];
                            /** @enum {unknown} */
                            kind: "webhook" | "email" | "chat";
                            /** @description webhook: an http(s) URL; email: an address; chat: an http(s) incoming-webhook URL or #channel */
                            target: string;
                        }[];
                        /** @description true when URL targets were shortened for a viewer */
                        redacted: boolean;
                        updated_at: string | null;
                        /** @description what an operator should know: unsigned webhook deliveries */
                        warnings?: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1ProjectsSlugNotifications: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    channels: {
                        events: ("run.started" | "run.succeeded" | "run.failed" | "run.canceled" | "run.fixed" | "gate.waiting")[];
                        /** @enum {unknown} */
                        kind: "webhook" | "email" | "chat";
                        /** @description webhook: an http(s) URL; email: an address; chat: an http(s) incoming-webhook URL or #channel */
                        target: string;
                    }[];
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
                        channels: {
                            events: ("run.started" | "run.succeeded" | "run.failed" | "run.canceled" | "run.fixed" | "gate.waiting")[];
                            /** @enum {unknown} */
                            kind: "webhook" | "email" | "chat";
                            /** @description webhook: an http(s) URL; email: an address; chat: an http(s) incoming-webhook URL or #channel */
                            target: string;
                        }[];
                        /** @description true when URL targets were shortened for a viewer */
                        redacted: boolean;
                        updated_at: string | null;
                        /** @description what an operator should know: unsigned webhook deliveries */
                        warnings?: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugNotificationsDeliveries: {
        parameters: {
            query: {
                event?: string;
                limit: number;
                offset: number;
                status?: "pending" | "delivered" | "failed";
            };
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        deliveries: {
                            attempts: number;
                            channel: {
                                kind: string;
                                target: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                            delivered_at: string | null;
                            event: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            idempotency_key: string;
                            last_error: string | null;
                            next_attempt_at: string | null;
                            response_status: number | null;
                            run_id: string | null;
                            /** @enum {unknown} */
                            status: "pending" | "delivered" | "failed";
                        }[];
                        limit: number;
                        offset: number;
                        total: number;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugPipelinesNameBadgeSvg: {
        parameters: {
            query?: {
                branch?: string;
            };
            header?: never;
            path: {
                name: string;
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description image/svg+xml */
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
    getApiV1ProjectsSlugPollInterval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        /** @description a duration (30s, 5m, 1h30m) overriding every material; "" polling disabled; null no override */
                        interval: string | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    putApiV1ProjectsSlugPollInterval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a duration (30s, 5m, 1h30m) overriding every material; "" polling disabled; null no override */
                    interval: string | null;
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
                        /** @description a duration (30s, 5m, 1h30m) overriding every material; "" polling disabled; null no override */
                        interval: string | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1ProjectsSlugRunAll: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run_ids: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        secrets: {
                            /** Format: date-time */
                            created_at: string;
                            name: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1ProjectsSlugSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description write-only */
                    value: string;
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
                        /** Format: date-time */
                        created_at: string;
                        name: string;
                        /** Format: date-time */
                        updated_at: string;
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
                        /** Format: date-time */
                        created_at: string;
                        name: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    deleteApiV1ProjectsSlugSecretsName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description an environment variable name */
                name: string;
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1ProjectsSlugSync: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        materials: number;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1ProjectsSlugVsm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a project slug */
                slug: string;
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
                        edges: {
                            from: string;
                            /** @description material (git material → pipeline) or upstream (pipeline → pipeline) */
                            kind: string;
                            /** @description upstream edges: the stage that triggers */
                            stage?: string;
                            /** @description upstream edges: the status that triggers */
                            status?: string;
                            to: string;
                        }[];
                        nodes: {
                            branch?: string;
                            /** @description expressions of its cron materials */
                            crons?: string[];
                            fingerprint?: string;
                            has_services?: boolean;
                            /** @description `material:<fingerprint>` or `pipeline:<uuid>` */
                            id: string;
                            /** @description git or pipeline */
                            kind: string;
                            latest_modification?: {
                                author: string | null;
                                /** Format: date-time */
                                detected_at: string;
                                message: string | null;
                                revision: string;
                            } | null;
                            latest_run?: {
                                /** @description manual, rerun, run_all, cron, webhook, poll or upstream */
                                cause: string;
                                /** @description per pipeline, from 1, consecutive */
                                counter: number;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                finished_at: string | null;
                                git_ref: string | null;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                id: string;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                pipeline_id: string;
                                pipeline_name: string;
                                project_slug: string;
                                revision: string | null;
                                /** Format: date-time */
                                started_at: string | null;
                                /** @enum {unknown} */
                                status: "queued" | "running" | "success" | "failed" | "canceled";
                                /** @description the newer run that canceled this one under concurrency: cancel-superseded */
                                superseded_by: {
                                    counter: number;
                                    pipeline_name: string;
                                    /**
                                     * Format: uuid
                                     * @description a UUID
                                     */
                                    run_id: string;
                                } | null;
                                /** @description why an unfinished run is not doing anything; null when it is not waiting (a queued run with no reason waits for an agent) */
                                waiting: {
                                    /** @description approval: the gate waiting */
                                    job: string | null;
                                    /** @description the same in one sentence, e.g. "waits for run #12 to finish (concurrency: serial)" */
                                    message: string;
                                    /** @description concurrency: held back by a serial concurrency group until run_id finishes (the run is queued and has not started); fork_approval: a pull request from a fork waits for a maintainer (POST /api/v1/runs/{id}/approve); approval: nothing runs and a manual gate (job) awaits approval */
                                    reason: "concurrency" | "fork_approval" | "approval";
                                    /** @description concurrency: the run it waits for */
                                    run_id: string | null;
                                } | null;
                            } | null;
                            name?: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            pipeline_id?: string;
                            stages?: string[];
                            url?: string;
                        }[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1ProjectsApply: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description gocdnext CLI form: refused (see docs/ci-gocdnext.md) */
                    config_repo?: string;
                    description?: string;
                    /** @description gocdnext CLI form: one pipeline document per file; a file without `name` is named after it */
                    files?: {
                        content: string;
                        name: string;
                    }[];
                    /** @description gocdnext CLI form: the project display name */
                    name?: string;
                    /** @description gocdnext CLI form: refused (see docs/ci-gocdnext.md) */
                    scm_source?: unknown;
                    /** @description gocdnext CLI form: the project slug */
                    slug?: string;
                    /** @description the pipeline bundle: one YAML document {project, pipelines} */
                    yaml?: string;
                };
                "multipart/form-data": {
                    description?: string;
                    /** @description one file part per pipeline document (by convention named "files"; any field name is taken); at most 200 files of 1048576 bytes */
                    files: string[];
                    /** @description the project display name */
                    name: string;
                    /** @description the project slug */
                    slug: string;
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
                        /** @description the number of pipelines in the bundle */
                        pipelines_applied: number;
                        project_slug: string;
                        /** @description what was accepted but not done: gocdnext's auto_register_webhook (no webhook is registered on the host) */
                        warnings?: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1Runs: {
        parameters: {
            query: {
                /** @description keyset paging: the id of the last run of the previous page (same filters); the page continues after it as cheaply at any depth. Not with `offset`. */
                cursor?: string;
                limit: number;
                offset: number;
                /** @description a UUID */
                pipeline?: string;
                /** @description a project slug */
                project?: string;
                status?: "queued" | "running" | "success" | "failed" | "canceled";
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
                        runs: {
                            /** @description manual, rerun, run_all, cron, webhook, poll or upstream */
                            cause: string;
                            /** @description per pipeline, from 1, consecutive */
                            counter: number;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            finished_at: string | null;
                            git_ref: string | null;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            pipeline_id: string;
                            pipeline_name: string;
                            project_slug: string;
                            revision: string | null;
                            /** Format: date-time */
                            started_at: string | null;
                            /** @enum {unknown} */
                            status: "queued" | "running" | "success" | "failed" | "canceled";
                            /** @description the newer run that canceled this one under concurrency: cancel-superseded */
                            superseded_by: {
                                counter: number;
                                pipeline_name: string;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                run_id: string;
                            } | null;
                            /** @description why an unfinished run is not doing anything; null when it is not waiting (a queued run with no reason waits for an agent) */
                            waiting: {
                                /** @description approval: the gate waiting */
                                job: string | null;
                                /** @description the same in one sentence, e.g. "waits for run #12 to finish (concurrency: serial)" */
                                message: string;
                                /** @description concurrency: held back by a serial concurrency group until run_id finishes (the run is queued and has not started); fork_approval: a pull request from a fork waits for a maintainer (POST /api/v1/runs/{id}/approve); approval: nothing runs and a manual gate (job) awaits approval */
                                reason: "concurrency" | "fork_approval" | "approval";
                                /** @description concurrency: the run it waits for */
                                run_id: string | null;
                            } | null;
                        }[];
                        total: number;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1RunsId: {
        parameters: {
            query: {
                /** @description the last N log lines of each job run; 0 leaves logs out */
                logs: number;
            };
            header?: never;
            path: {
                /** @description a UUID */
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
                        /** @description manual, rerun, run_all, cron, webhook, poll or upstream */
                        cause: string;
                        /** @description per pipeline, from 1, consecutive */
                        counter: number;
                        /** Format: date-time */
                        created_at: string;
                        /** @description pipelines as code: the repository's definition at the run's commit did not apply, and why (the run follows the last good definition); null for every other run */
                        definition_error: string | null;
                        /** Format: date-time */
                        finished_at: string | null;
                        /** @description a run of a pull request from a fork (null for every other run) */
                        fork: {
                            /** Format: date-time */
                            approved_at: string | null;
                            approved_by: string | null;
                            /** @description who opened the pull request */
                            author: string | null;
                            /** @description the run waits for a maintainer: POST /api/v1/runs/{id}/approve */
                            awaiting_approval: boolean;
                            /** @description the approver's comment */
                            comment: string | null;
                            /** @description the fork the code comes from */
                            head_repository: string | null;
                            /** @description why the run waits or runs without secrets, in one sentence */
                            reason: string;
                            /** @description its jobs get no project or global secret */
                            secrets_withheld: boolean;
                        } | null;
                        git_ref: string | null;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        id: string;
                        parameters: {
                            [key: string]: string;
                        };
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        pipeline_id: string;
                        pipeline_name: string;
                        /** @description the labels of the pull request the run builds, lower case, as its webhook gave them (a gate's approval.quorum_by_label reads them); empty for other runs */
                        pr_labels: string[];
                        project_slug: string;
                        revision: string | null;
                        stages: {
                            /** @description every attempt of every job run, in stage order */
                            jobs: {
                                agent: string | null;
                                attempt: number;
                                /** @description the engine that ran the attempt: podman (a container), sandbox (bubblewrap) or host (no isolation, on an agent whose operator opted in); null before the job started or from an agent that predates engines */
                                engine: string | null;
                                exit_code: number | null;
                                /** @description why this attempt failed or was canceled, in one line (script exit code, timeout, agent lost with the time since it was last heard, could not start, rejected or expired gate, canceled); null otherwise */
                                failure_reason: string | null;
                                /** Format: date-time */
                                finished_at: string | null;
                                /** @description a manual gate: its description, approvals needed and received, who decided and why */
                                gate: {
                                    /** @description whether whoever triggered the run may approve (approval.allow_self_approval) */
                                    allow_self_approval: boolean;
                                    /** @description distinct people who approved so far */
                                    approvals: number;
                                    /** @description roles (maintainer, admin) or approver groups (/api/v1/admin/approver-groups) that may decide (approval.approver_groups); both lists empty: any maintainer or admin */
                                    approver_groups: string[];
                                    /** @description user names or e-mail addresses that may decide (approval.approvers) */
                                    approvers: string[];
                                    /** @description every decision on this attempt, oldest first */
                                    decisions: {
                                        actor: string;
                                        /** Format: date-time */
                                        at: string;
                                        comment: string | null;
                                        decision: "approve" | "reject";
                                    }[];
                                    description: string | null;
                                    /** @description distinct approvals needed */
                                    required: number;
                                } | null;
                                /**
                                 * Format: uuid
                                 * @description a UUID
                                 */
                                id: string;
                                /** @description the last N lines of this attempt, oldest first */
                                logs: {
                                    /** Format: date-time */
                                    at: string;
                                    /**
                                     * Format: uuid
                                     * @description a UUID
                                     */
                                    job_run_id: string;
                                    seq: number;
                                    /** @description stdout or stderr */
                                    stream: string;
                                    text: string;
                                }[];
                                matrix: {
                                    [key: string]: string;
                                };
                                name: string;
                                /** @description names of the jobs this one waits for */
                                needs: string[];
                                /** Format: date-time */
                                started_at: string | null;
                                /** @description created, queued, running, awaiting_approval, success, failed, canceled or skipped */
                                status: string;
                            }[];
                            name: string;
                            /** @description created, running, success, failed, canceled or skipped */
                            status: string;
                        }[];
                        /** Format: date-time */
                        started_at: string | null;
                        /** @enum {unknown} */
                        status: "queued" | "running" | "success" | "failed" | "canceled";
                        /** @description the newer run that canceled this one under concurrency: cancel-superseded */
                        superseded_by: {
                            counter: number;
                            pipeline_name: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            run_id: string;
                        } | null;
                        triggered_by: string;
                        /** @description why an unfinished run is not doing anything; null when it is not waiting (a queued run with no reason waits for an agent) */
                        waiting: {
                            /** @description approval: the gate waiting */
                            job: string | null;
                            /** @description the same in one sentence, e.g. "waits for run #12 to finish (concurrency: serial)" */
                            message: string;
                            /** @description concurrency: held back by a serial concurrency group until run_id finishes (the run is queued and has not started); fork_approval: a pull request from a fork waits for a maintainer (POST /api/v1/runs/{id}/approve); approval: nothing runs and a manual gate (job) awaits approval */
                            reason: "concurrency" | "fork_approval" | "approval";
                            /** @description concurrency: the run it waits for */
                            run_id: string | null;
                        } | null;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1RunsIdApprove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description kept with the approval */
                    comment?: string;
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
                        approved_by: string;
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        run_id: string;
                        /** @description whether its jobs run without secrets */
                        secrets_withheld: boolean;
                        /** @enum {unknown} */
                        status: "queued" | "running" | "success" | "failed" | "canceled";
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1RunsIdArtifacts: {
        parameters: {
            query: {
                /** @description add signed download links */
                download: boolean;
            };
            header?: never;
            path: {
                /** @description a UUID */
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
                        artifacts: {
                            /** @description hex SHA-256 */
                            content_sha256: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @description signed link valid for about 5 minutes (with `download=true`) */
                            download_url?: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            /** @description the job run name, with its matrix values */
                            job_name: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            job_run_id: string;
                            /** @description path of the file relative to the checkout */
                            path: string;
                            size_bytes: number;
                            /** @description `ready` once stored and verified */
                            status: string;
                        }[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1RunsIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        run_id: string;
                        /** @enum {unknown} */
                        status: "queued" | "running" | "success" | "failed" | "canceled";
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1RunsIdLogsStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description with `gzip` (not `q=0`), the stream is sent gzip-encoded */
                "accept-encoding"?: string;
                /** @description the id of the last event received */
                "last-event-id"?: string;
            };
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description the run is over and the client already holds every line (its Last-Event-ID) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiV1RunsIdRerun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description a UUID
                         */
                        run_id: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1RunsIdServices: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a UUID */
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
                        services: {
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            id: string;
                            job_name: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            job_run_id: string;
                            /** @description why it failed (not ready in time, exited, could not start) */
                            message: string | null;
                            /** @description the service name in the job */
                            name: string;
                            /** Format: date-time */
                            started_at: string;
                            /** @enum {unknown} */
                            status: "starting" | "ready" | "failed" | "stopped";
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1RunsIdTests: {
        parameters: {
            query: {
                limit: number;
                status?: "passed" | "failed" | "error" | "skipped";
            };
            header?: never;
            path: {
                /** @description a UUID */
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
                        /** @description failed and erroring cases first, then the others; at most `limit` */
                        cases: {
                            classname: string;
                            duration_s: number;
                            job_name: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            job_run_id: string;
                            message: string | null;
                            name: string;
                            /** @enum {unknown} */
                            status: "passed" | "failed" | "error" | "skipped";
                            suite: string;
                        }[];
                        /** @description more cases matched than are listed */
                        cases_truncated: boolean;
                        duration_s: number;
                        errors: number;
                        failed: number;
                        jobs: {
                            attempt: number;
                            duration_s: number;
                            errors: number;
                            failed: number;
                            job_name: string;
                            /**
                             * Format: uuid
                             * @description a UUID
                             */
                            job_run_id: string;
                            passed: number;
                            skipped: number;
                            tests: number;
                            /** @description report files that could not be read */
                            unreadable_files: string[];
                        }[];
                        passed: number;
                        skipped: number;
                        suites: {
                            duration_s: number;
                            errors: number;
                            failed: number;
                            name: string;
                            passed: number;
                            skipped: number;
                            tests: number;
                        }[];
                        tests: number;
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
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
                        error: string;
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
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getApiV1SchemaPipelineBundleJson: {
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
    postApiWebhooksBitbucket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description verified; runs started (possibly none: unwatched branch, duplicate, skip) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description runs this delivery started */
                        runs: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiWebhooksGithub: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description verified; runs started (possibly none: unwatched branch, duplicate, skip) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description runs this delivery started */
                        runs: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    postApiWebhooksGitlab: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description verified; runs started (possibly none: unwatched branch, duplicate, skip) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description runs this delivery started */
                        runs: string[];
                    };
                };
            };
            /** @description An error a person can act on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description An error a person can act on. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
        };
    };
    getAuthCallbackProvider: {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                error_description?: string;
                error_uri?: string;
                iss?: string;
                session_state?: string;
                state?: string;
            };
            header?: never;
            path: {
                provider: string;
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
    getAuthLoginProvider: {
        parameters: {
            query?: {
                next?: string;
                return_to?: string;
            };
            header?: never;
            path: {
                provider: string;
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
    postAuthLoginLocal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    username: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        email: null | string;
                        id: string;
                        role: string;
                        username: string;
                    };
                };
            };
        };
    };
    postAuthLogout: {
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
    getAuthProviders: {
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
                        providers: {
                            display: string;
                            name: string;
                        }[];
                    };
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `ok` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
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
            /** @description Prometheus text exposition format 0.0.4 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `ready` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description `not ready: <why>` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    getVersion: {
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
                        /** Format: date-time */
                        build_date: string;
                        commit: string;
                        version: string;
                    };
                };
            };
        };
    };
}

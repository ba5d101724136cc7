// The audit recorder: response hooks write one entry per state-changing request (any method but
// GET/HEAD/OPTIONS) with the actor, the action (route pattern, or a name a handler chose), the target, the
// outcome and details stripped of anything secret. Handlers can refine an entry through `request.auditNote`.
// Writes are not awaited by the request; `flush()` waits for them (the audit query and shutdown call it).
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { insertAudit } from '../store/auth-audit.js';
import type { StoreDb } from '../store/database.js';
import type { KnownSecrets } from '../store/known-secrets.js';
import { isStateChanging } from './cookies.js';
import type { Principal } from './roles.js';

export interface AuditNote {
  action?: string;
  actor?: string;
  target?: string;
  details?: Record<string, unknown>;
  /** Set by a handler that recorded its own entry. */
  skip?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auditNote?: AuditNote;
  }
}

export interface AuditEvent {
  actor: string;
  action: string;
  target: string | null;
  status: number;
  details: Record<string, unknown>;
}

/** How an actor is written in the log: the username, `sa:<name>` for service accounts, or `anonymous`. */
export function actorName(principal: Principal | undefined): string {
  if (!principal || principal.kind === 'anonymous') return 'anonymous';
  if (principal.kind === 'service_account') return `sa:${principal.username}`;
  return principal.username;
}

const SENSITIVE = /pass|secret|token|value|key|credential|cookie|auth|yaml|content|private|code|state/i;

/** Top-level scalar fields whose names do not suggest a secret, strings cut to 200 characters. */
export function safeFields(input: unknown): Record<string, unknown> | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (n >= 20 || SENSITIVE.test(key)) continue;
    if (typeof value === 'string') out[key] = value.length > 200 ? `${value.slice(0, 200)}…` : value;
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) out[key] = value;
    else continue;
    n += 1;
  }
  return n > 0 ? out : undefined;
}

/** `POST /api/v1/admin/users/{id}/role` from Fastify's `/api/v1/admin/users/:id/role`. */
export function actionOf(method: string, url: string): string {
  return `${method} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

export class AuditRecorder {
  // Writes run one after another in the order requests finished: with a connection pool, concurrent inserts
  // could commit out of order and the log (ordered by its sequence) would misstate what happened first.
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: StoreDb,
    private readonly log: FastifyBaseLogger,
    /** Every stored secret: a value someone typed into a comment or a field is masked in the entry. */
    private readonly secrets?: KnownSecrets,
  ) {}

  private async masked<T extends AuditEvent>(entry: T): Promise<T> {
    if (!this.secrets) return entry;
    const m = await this.secrets.masker();
    if (!m.active) return entry;
    return {
      ...entry,
      target: entry.target === null ? null : m.mask(entry.target),
      details: await this.secrets.maskValue(entry.details),
    };
  }

  record(event: AuditEvent): void {
    const entry = { id: randomUUID(), at: new Date().toISOString(), ...event };
    this.tail = this.tail.then(() =>
      // A masking failure (store unreachable) must not write the unmasked entry: it is logged instead.
      this.masked(entry)
        .then((e) => insertAudit(this.db, e))
        .catch((err: Error) => {
          // An audit write that fails is logged loudly; it must not turn a finished request into an error.
          this.log.error({ err, action: event.action }, 'audit entry could not be written');
        }),
    );
  }

  async flush(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.tail;
      await seen;
    } while (seen !== this.tail);
  }

  /** The entry a finished request produces, or undefined when it is not audited. */
  eventFor(request: FastifyRequest, status: number): AuditEvent | undefined {
    const note = request.auditNote;
    const pattern = request.routeOptions.url;
    if (note?.skip) return undefined;
    // Unmatched paths change nothing and would let scanners flood the log.
    if (!note?.action && (!pattern || !isStateChanging(request.method))) return undefined;
    const params = safeFields(request.params);
    const target =
      note?.target ??
      (params
        ? Object.entries(params)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(',')
        : null);
    const principal = request.principal;
    const details: Record<string, unknown> = {
      status,
      outcome: status < 400 ? 'success' : 'failure',
      request_id: request.id,
    };
    if (principal && principal.kind !== 'anonymous') details.via = principal.tokenId ? 'token' : 'session';
    if (principal?.tokenId) details.token_id = principal.tokenId;
    const body = safeFields(request.body);
    if (body) details.fields = body;
    const query = safeFields(request.query);
    if (query) details.query = query;
    Object.assign(details, note?.details);
    return {
      actor: note?.actor ?? actorName(principal),
      action: note?.action ?? actionOf(request.method, pattern!),
      target,
      status,
      details,
    };
  }

  install(app: FastifyInstance): void {
    const done = new WeakSet<FastifyRequest>();
    const capture = (request: FastifyRequest, status: number) => {
      if (done.has(request)) return;
      done.add(request);
      const event = this.eventFor(request, status);
      if (event) this.record(event);
    };
    // Queued in onSend, before the client can see the response, so the audit query (which flushes) always
    // includes it; onResponse catches replies that never passed onSend (hijacked or aborted).
    app.addHook('onSend', async (request, reply, payload) => {
      capture(request, reply.statusCode);
      return payload;
    });
    app.addHook('onResponse', async (request, reply) => capture(request, reply.statusCode));
    app.addHook('onClose', async () => this.flush());
  }
}

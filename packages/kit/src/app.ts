// Fastify app factory shared by both services: request ids, pino logging, one error handler that answers in
// the service's error shape (never a 500 for a client mistake), 404 vs 405, body-size limits, and graceful
// shutdown that stops accepting, drains in-flight requests and then closes pools.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import FindMyWay from 'find-my-way';
import { registerCompression } from './compression.js';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from './db-unavailable.js';
import { type ErrorShape, errorBody, HttpError } from './http-errors.js';
import { lazySchemaCompilers } from './lazy-schemas.js';
import { loggerOptions } from './logger.js';

export interface AppOptions {
  service: string;
  errorShape: ErrorShape;
  /** Largest accepted request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** `false` silences request logging (tests). */
  logger?: boolean | FastifyServerOptions['logger'];
  trustProxy?: boolean;
  /**
   * Ajv type coercion of request data (default `'array'`, Fastify's own). `false` checks JSON types strictly;
   * the service must then turn query strings into numbers itself (the CI does, in http/strict-query.ts).
   */
  coerceTypes?: false | 'array';
  /** Longest path parameter the router matches (default 100); longer ones answer 400 in the service's shape. */
  maxParamLength?: number;
  /**
   * Compile each route's request and response schemas on its first request instead of at start (the
   * portal's first answer; lazy-schemas.ts). Header schemas are then not lower-cased by Fastify, so a service
   * turning this on must not declare `headers` schemas.
   */
  lazySchemas?: boolean;
}

interface FastifyReplyLike {
  code(status: number): { send(body: unknown): unknown };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The media types a route takes: those its body schema lists by content type, else JSON (the one body
 * parser both services install for every route). Named in a 415 so the caller knows what to send.
 */
function acceptedTypes(req: FastifyRequest): string[] {
  const body = (req.routeOptions?.schema as { body?: { content?: Record<string, unknown> } } | undefined)
    ?.body;
  return body?.content && typeof body.content === 'object' ? Object.keys(body.content) : ['application/json'];
}

function clientMessage(
  err: {
    statusCode?: number;
    code?: string;
    message: string;
    validation?: unknown;
  },
  req: FastifyRequest,
): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `Request body is not valid JSON: ${err.message.replace(/^Body is not valid JSON but content-type is set to 'application\/json'$/, 'malformed JSON')}`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const sent =
        String(req.headers['content-type'] ?? '')
          .split(';')[0]
          .trim() || 'none';
      return `Unsupported content type "${sent}": send ${acceptedTypes(req).join(' or ')}`;
    }
    default:
      return err.message;
  }
}

export function createApp(options: AppOptions): FastifyInstance {
  const logger =
    options.logger === false
      ? false
      : options.logger === true || options.logger === undefined
        ? loggerOptions(options.service)
        : options.logger;
  const app = Fastify({
    logger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    forceCloseConnections: 'idle',
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: options.maxParamLength ?? 100 },
    ...(options.lazySchemas ? { schemaController: { compilersFactory: lazySchemaCompilers() } } : {}),
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: options.coerceTypes ?? 'array',
        allErrors: false,
      },
    },
    // Errors the router raises before any route runs (a malformed %-escape, a path parameter over the
    // length limit) answer in the service's own shape, never Fastify's `{code, message, statusCode}`.
    frameworkErrors: (err, _req, reply) => {
      const message =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path parameter is too long'
          : err.code === 'FST_ERR_BAD_URL'
            ? 'The request path is not a valid URL (malformed percent-encoding)'
            : 'Bad request';
      // The reply's generic send types refuse a plain body here; the body is the service's error shape.
      (reply as unknown as FastifyReplyLike).code(400).send(errorBody(options.errorShape, 400, message));
    },
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // JSON and other text bodies over 1 KiB go brotli/gzip-compressed to clients that accept it.
  registerCompression(app);

  // A second router that only knows which methods exist per path, so an unknown method on a known path is a
  // 405 with `Allow` rather than a 404.
  const known = FindMyWay();
  const methodsSeen = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (m === 'HEAD') continue;
      methodsSeen.add(m);
      try {
        known.on(m as 'GET', route.url, () => {});
      } catch {
        // duplicate registration (e.g. a prefixed and an unprefixed alias): already known
      }
    }
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = [...methodsSeen].filter((m) => m !== req.method && known.find(m as 'GET', path));
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return reply
        .code(405)
        .send(errorBody(options.errorShape, 405, `Method ${req.method} not allowed on ${path}`));
    }
    return reply.code(404).send(errorBody(options.errorShape, 404, `Route ${req.method} ${path} not found`));
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof HttpError) {
      return reply
        .code(err.statusCode)
        .send(errorBody(options.errorShape, err.statusCode, err.message, err.code, err.extra));
    }
    const e = err as { statusCode?: number; code?: string; message: string; validation?: unknown };
    if (e.validation) {
      return reply
        .code(400)
        .send(errorBody(options.errorShape, 400, `Invalid request: ${e.message}`, 'BAD_REQUEST'));
    }
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    if (status >= 500 && isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', '5');
      return reply.code(503).send(errorBody(options.errorShape, 503, DATABASE_UNAVAILABLE));
    }
    if (status >= 500) {
      req.log.error({ err }, 'unhandled error');
      return reply.code(500).send(errorBody(options.errorShape, 500, 'Internal server error'));
    }
    return reply.code(status).send(errorBody(options.errorShape, status, clientMessage(e, req)));
  });

  return app;
}

export interface ShutdownOptions {
  /** Called after the HTTP server stopped and drained: close pools, stop timers. */
  onClose?: Array<() => Promise<void> | void>;
  /** Hard deadline for the drain (default 10 s). */
  timeoutMs?: number;
  log?: (msg: string) => void;
}

/**
 * Installs SIGINT/SIGTERM handlers: stop accepting, let in-flight requests finish (bounded), run the closers
 * in order, exit 0. A second signal exits at once.
 */
export function installGracefulShutdown(
  app: FastifyInstance,
  options: ShutdownOptions = {},
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const shutdown = () => {
    if (closing) return closing;
    closing = (async () => {
      const timer = setTimeout(() => {
        options.log?.('shutdown deadline passed; exiting');
        process.exit(1);
      }, options.timeoutMs ?? 10_000);
      timer.unref();
      try {
        await app.close();
        for (const close of options.onClose ?? []) await close();
      } finally {
        clearTimeout(timer);
      }
    })();
    return closing;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      options.log?.(`${signal} received; draining`);
      process.once(signal, () => process.exit(1));
      shutdown().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return shutdown;
}

/**
 * What both services do with an uncaught exception or an unhandled rejection: log it with its context and
 * exit 1 so the supervisor (systemd, Kubernetes, `npm start`'s parent) starts a clean process. Node's own
 * advice: after an exception nobody caught, the process state is unknown (a half-written file, a pool
 * client never released), so serving on would trade a visible restart for silent corruption. Streams the
 * services create keep an error listener for their whole life (`openSpoolFile`), so none of them is a way
 * for a client to reach this handler on purpose.
 */
export function installCrashHandlers(
  log: { fatal: (obj: object, msg: string) => void },
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  process.on('uncaughtException', (err, origin) => {
    log.fatal({ err, origin }, 'uncaught exception; exiting so the supervisor restarts a clean process');
    exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    log.fatal(
      { err: reason },
      'unhandled promise rejection; exiting so the supervisor restarts a clean process',
    );
    exit(1);
  });
}

// Checks an OpenAPI description with the tools other people use on it: @apidevtools/swagger-parser
// (structural validation), Redocly's recommended rules (@redocly/openapi-core's lint API, offline), and ajv
// against real responses. Test-only; imported as `@app/kit/testing/openapi` so other tests do not load these
// libraries.
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export interface LintReport {
  /** swagger-parser's message when validation fails. */
  swaggerParser: string | undefined;
  /** Redocly problems of severity `error`, as `rule at pointer: message`. */
  redoclyErrors: string[];
  redoclyWarnings: number;
}

export async function lintOpenApi(doc: Json): Promise<LintReport> {
  let swaggerParser: string | undefined;
  try {
    // swagger-parser dereferences in place: give it a copy.
    await SwaggerParser.validate(structuredClone(doc) as never);
  } catch (err) {
    swaggerParser = (err as Error).message;
  }
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: '/openapi.json',
    config,
  });
  const redoclyErrors = problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
  return { swaggerParser, redoclyErrors, redoclyWarnings: problems.length - redoclyErrors.length };
}

/**
 * Protected operations (non-empty security) whose 401 or 403 answer is missing or whose JSON schema does not
 * describe the service's error body (an object with the `errorField` property).
 */
export function protectedWithoutAuthErrors(doc: Json, errorField = 'error'): string[] {
  const missing: string[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {}))
    for (const method of METHODS) {
      const op = item[method];
      const security = op?.security ?? doc.security ?? [];
      if (!op || security.length === 0) continue;
      for (const status of ['401', '403']) {
        const schema = op.responses?.[status]?.content?.['application/json']?.schema;
        if (!schema?.properties?.[errorField]) missing.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
  return missing;
}

interface Template {
  path: string;
  pattern: RegExp;
  params: number;
}

/** Validates real responses against the schema the description gives for their operation and status. */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly templates: Template[];
  private readonly compiled = new Map<string, (data: unknown) => boolean>();
  /** `METHOD path status` of every response checked. */
  readonly seen = new Set<string>();

  constructor(private readonly doc: Json) {
    (addFormatsModule as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.templates = Object.keys(doc.paths ?? {})
      .map((path) => ({
        path,
        params: (path.match(/\{/g) ?? []).length,
        pattern: new RegExp(
          `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`,
        ),
      }))
      // A literal segment wins over a parameter (`/runs/latest` before `/runs/{id}`).
      .sort((a, b) => a.params - b.params);
  }

  /** The description's path template for a concrete URL (query dropped). */
  templateOf(url: string): string | undefined {
    const path = url.split('?')[0];
    return this.templates.find((t) => t.pattern.test(path))?.path;
  }

  /** Problems with one response; empty when it matches its description. */
  check(
    method: string,
    url: string,
    status: number,
    contentType: string | undefined,
    body: string,
  ): string[] {
    const template = this.templateOf(url);
    const where = `${method.toUpperCase()} ${url} → ${status}`;
    if (!template) return [`${where}: no path of the description matches`];
    const op = this.doc.paths[template][method.toLowerCase()];
    if (!op) return [`${where}: ${method} is not described on ${template}`];
    this.seen.add(`${method.toUpperCase()} ${template} ${status}`);
    const answer = op.responses?.[String(status)] ?? op.responses?.default;
    if (!answer) return [`${where}: status ${status} is not described`];
    if (status === 204 || body === '') return [];
    const type = (contentType ?? '').split(';')[0].trim();
    const content = answer.content as Json | undefined;
    if (!content) return [`${where}: answered ${type} but the description has no content`];
    const media = content[type] ?? (type.endsWith('json') ? content['application/json'] : undefined);
    if (!media) return [`${where}: ${type} is not among ${Object.keys(content).join(', ')}`];
    if (!type.endsWith('json') || !media.schema) return [];
    const key = `${template} ${method} ${status} ${type}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(media.schema);
      this.compiled.set(key, validate);
    }
    if (validate(JSON.parse(body))) return [];
    const errors = (validate as unknown as { errors: { instancePath: string; message: string }[] }).errors;
    return errors.map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message}`);
  }
}

/** What `inject` of a Fastify app needs; typed loosely so both services' apps fit. */
interface Injectable {
  inject(opts: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: string;
  }): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string; json(): any }>;
}

/**
 * Sends requests to an app in process and checks each answer against the description as it goes: the
 * statuses seen and every mismatch are kept for the test to assert on at the end.
 */
export class ResponseRecorder {
  readonly problems: string[] = [];
  readonly statuses = new Set<number>();
  private readonly checker: ResponseChecker;

  constructor(
    private readonly app: Injectable,
    doc: Json,
  ) {
    this.checker = new ResponseChecker(doc);
  }

  async call(method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) {
    const res = await this.app.inject({
      method,
      url,
      headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    this.statuses.add(res.statusCode);
    this.problems.push(
      ...this.checker.check(method, url, res.statusCode, res.headers['content-type'] as string, res.body),
    );
    return res;
  }

  /** The statuses seen, ascending. */
  sortedStatuses(): number[] {
    return [...this.statuses].sort((a, b) => a - b);
  }
}

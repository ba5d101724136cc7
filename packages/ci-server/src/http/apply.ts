// POST /api/v1/projects/apply in both variants of pipeline-yaml.md: JSON `{yaml}` holding the whole bundle,
// or multipart with fields slug, name, description and one file part per pipeline document. Multipart parts
// are read (bounded by MULTIPART_LIMITS) before validation into a body the schema checks like JSON.
import { badRequest } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  assembleBundle,
  type BundleResult,
  formatBundleError,
  type PipelineFile,
  parseBundle,
} from '../domain/index.js';
import { applyBundle } from '../services/apply.js';
import { type Api, type ApiContext, MULTIPART_LIMITS } from './context.js';
import { errors } from './schemas.js';

const ApplyJson = Type.Object(
  {
    yaml: Type.Optional(
      Type.String({ description: 'the pipeline bundle: one YAML document {project, pipelines}' }),
    ),
    // gocdnext's CLI body (`gocdnext apply`): the project fields and the files of its .gocdnext/ folder.
    slug: Type.Optional(Type.String({ description: 'gocdnext CLI form: the project slug' })),
    name: Type.Optional(Type.String({ description: 'gocdnext CLI form: the project display name' })),
    description: Type.Optional(Type.String()),
    files: Type.Optional(
      Type.Array(Type.Object({ name: Type.String(), content: Type.String() }), {
        maxItems: MULTIPART_LIMITS.files,
        description:
          'gocdnext CLI form: one pipeline document per file; a file without `name` is named after it',
      }),
    ),
    config_repo: Type.Optional(
      Type.String({ description: 'gocdnext CLI form: refused (see docs/ci-gocdnext.md)' }),
    ),
    scm_source: Type.Optional(
      Type.Unknown({ description: 'gocdnext CLI form: refused (see docs/ci-gocdnext.md)' }),
    ),
  },
  {
    additionalProperties: false,
    description: "either {yaml} (the bundle) or gocdnext's {slug, name, files: [{name, content}]}",
  },
);

const ApplyMultipart = Type.Object(
  {
    slug: Type.String({ description: 'the project slug' }),
    name: Type.String({ description: 'the project display name' }),
    description: Type.Optional(Type.String()),
    files: Type.Array(Type.String({ contentMediaType: 'application/yaml' }), {
      description: `one file part per pipeline document (by convention named "files"; any field name is taken); at most ${MULTIPART_LIMITS.files} files of ${MULTIPART_LIMITS.fileSize} bytes`,
    }),
  },
  { additionalProperties: false },
);

const ApplyResult = Type.Object({
  project_slug: Type.String(),
  pipelines_applied: Type.Integer({ description: 'the number of pipelines in the bundle' }),
  warnings: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "what was accepted but not done: gocdnext's auto_register_webhook (no webhook is registered on the host)",
    }),
  ),
});

/** File parts with their names, kept beside the validated body (which holds only their text). */
const uploaded = new WeakMap<FastifyRequest, PipelineFile[]>();
const utf8 = new TextDecoder('utf-8', { fatal: true });

async function readMultipart(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  try {
    await readParts(request);
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) throw err;
    // busboy's own complaints (no boundary, cut-off body) are the client's mistake.
    throw badRequest(`The multipart body is malformed: ${(err as Error).message}`);
  }
}

async function readParts(request: FastifyRequest): Promise<void> {
  const body: Record<string, unknown> = {};
  const files: PipelineFile[] = [];
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const buffer = await part.toBuffer();
      let text: string;
      try {
        text = utf8.decode(buffer);
      } catch {
        throw badRequest(`file part "${part.filename || part.fieldname}" is not UTF-8 text`);
      }
      files.push({ name: part.filename || `${part.fieldname}[${files.length}]`, text });
      continue;
    }
    if (part.fieldname in body) throw badRequest(`form field "${part.fieldname}" is given more than once`);
    body[part.fieldname] = part.value;
  }
  body.files = files.map((f) => (typeof f === 'string' ? f : f.text));
  uploaded.set(request, files);
  request.body = body;
}

function bundleOrThrow(result: BundleResult) {
  if (result.ok) return result.bundle;
  const shown = result.errors.map(formatBundleError);
  throw badRequest(`The bundle is not valid: ${shown.join('; ')}`);
}

/** The JSON variants: `{yaml}`, or gocdnext's CLI body `{slug, name, description?, files}`. */
function parseJsonBody(body: Record<string, unknown>): BundleResult {
  const cliKeys = ['slug', 'name', 'description', 'files', 'config_repo', 'scm_source'].filter(
    (k) => body[k] !== undefined,
  );
  if (typeof body.yaml === 'string') {
    if (cliKeys.length > 0)
      throw badRequest(
        `give either "yaml" or gocdnext's {slug, name, files}, not both (found ${cliKeys.join(', ')})`,
      );
    return parseBundle(body.yaml);
  }
  if (body.config_repo !== undefined)
    throw badRequest('"config_repo" is not supported: send the pipeline files in "files"');
  if (body.scm_source !== undefined)
    throw badRequest(
      '"scm_source" is not taken by apply: to keep the pipelines in the repository, bind it with PUT /api/v1/projects/{slug}/config-repo (or send the files in "files")',
    );
  if (!Array.isArray(body.files))
    throw badRequest('the body needs "yaml" (the bundle) or gocdnext\'s {slug, name, files}');
  const files = body.files as { name: string; content: string }[];
  return assembleBundle(
    {
      slug: (body.slug as string | undefined) ?? '',
      // gocdnext's CLI may leave the name out: the slug stands in for it.
      name: (body.name as string | undefined) || ((body.slug as string | undefined) ?? ''),
      description: (body.description as string | undefined) ?? null,
    },
    files.map((f) => ({ name: f.name, text: f.content })),
  );
}

export function registerApplyRoute(api: Api, ctx: ApiContext): void {
  api.post('/api/v1/projects/apply', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Create or update a project from a pipeline bundle',
      description:
        'Apply is a full declaration: new pipelines are created, changed ones get a new version, pipelines ' +
        'missing from the bundle are archived (their runs stay readable). Applying the same bundle again ' +
        'changes nothing, timestamps included. Invalid bundles are 400 with every problem named by path, ' +
        'line and column (and file, for multipart).',
      body: {
        content: {
          'application/json': { schema: ApplyJson },
          'multipart/form-data': { schema: ApplyMultipart },
        },
      },
      response: { 200: ApplyResult, ...errors(400, 413, 415) },
    },
    preValidation: readMultipart,
    handler: async (request) => {
      const files = uploaded.get(request);
      const body = request.body as Record<string, unknown>;
      const result = files
        ? assembleBundle(
            {
              slug: body.slug as string,
              name: body.name as string,
              description: (body.description as string | undefined) ?? null,
            },
            files,
          )
        : parseJsonBody(body);
      return applyBundle(ctx.db, bundleOrThrow(result), ctx.postgres);
    },
  });
}

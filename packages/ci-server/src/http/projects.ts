// Project routes: list, detail, cascading delete, run-all, and the pipeline bundle's JSON Schema.
import { Type } from 'typebox';
import { PIPELINE_BUNDLE_SCHEMA } from '../domain/index.js';
import { deleteProject, getProjectDetail, listProjects } from '../services/projects.js';
import { type Api, type ApiContext, actorOf } from './context.js';
import { errors, NoContent, Project, ProjectDetail, SlugParams, Uuid } from './schemas.js';

export function registerProjectRoutes(api: Api, ctx: ApiContext): void {
  api.get('/api/v1/projects', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: 'List projects',
      response: { 200: Type.Object({ projects: Type.Array(Project) }) },
    },
    handler: async () => listProjects(ctx.db),
  });

  api.get('/api/v1/projects/:slug', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: 'A project with its active pipelines and recent runs',
      params: SlugParams,
      response: { 200: ProjectDetail, ...errors(400, 404) },
    },
    handler: async (request) => getProjectDetail(ctx.db, request.params.slug),
  });

  api.delete('/api/v1/projects/:slug', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Delete a project',
      description:
        'Deletes the project with its pipelines, versions, materials, runs, job runs, log lines, artifacts ' +
        'records and secrets. The spec allows maintainer or admin; maintainer is required here.',
      params: SlugParams,
      response: { 204: NoContent, ...errors(400, 403, 404) },
    },
    handler: async (request, reply) => {
      await deleteProject(ctx.db, request.params.slug);
      return reply.code(204).send();
    },
  });

  api.post('/api/v1/projects/:slug/run-all', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Run every active pipeline of the project on its default branch',
      description:
        'One run per active pipeline (cause run_all), on the branch of its first git material at its head ' +
        'commit (resolved with git ls-remote, with stored SCM credentials; revision null when it cannot be ' +
        'resolved or the pipeline has no git material); the runs are created in one transaction and their ' +
        'first jobs queued.',
      params: SlugParams,
      response: { 202: Type.Object({ run_ids: Type.Array(Uuid) }), ...errors(400, 404) },
    },
    handler: async (request, reply) => {
      const result = await ctx.runs.runAll(request.params.slug, actorOf(request));
      return reply.code(202).send(result);
    },
  });

  api.get('/api/v1/schema/pipeline-bundle.json', {
    config: { access: 'public' },
    schema: {
      tags: ['projects'],
      summary: 'JSON Schema (2020-12) of a pipeline bundle',
      description:
        'Public, like a published file format: editors and linters fetch it without credentials. ' +
        '`$defs.pipeline` is the single-file form used by the multipart apply.',
    },
    handler: async () => PIPELINE_BUNDLE_SCHEMA,
  });
}

// Project trigger routes: sync (re-poll every git material now), the poll-interval override, and cron
// schedules (`{id, name, expression, pipeline_ids, enabled, next_run_at}`). Reads need viewer, writes
// maintainer.
import { Type } from 'typebox';
import type { Triggers } from '../triggers/index.js';
import type { Api } from './context.js';
import { errors, NoContent, SlugParams, Uuid } from './schemas.js';

const CronSchedule = Type.Object({
  id: Uuid,
  name: Type.String(),
  expression: Type.String({ description: '5-field cron expression or @hourly/@daily/…, evaluated in UTC' }),
  pipeline_ids: Type.Array(Uuid, { description: 'pipelines it runs; empty means every active pipeline' }),
  enabled: Type.Boolean(),
  next_run_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'next firing (UTC); null when disabled',
  }),
});

const CronFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  expression: Type.String({ minLength: 1, maxLength: 200 }),
  pipeline_ids: Type.Array(Uuid, { maxItems: 200 }),
  enabled: Type.Boolean(),
};

const CronParams = Type.Object({ slug: SlugParams.properties.slug, id: Uuid });
const PollInterval = Type.Object({
  // A type list, not anyOf: Ajv's coercion would otherwise turn null into "" (or "" into null).
  interval: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    maxLength: 50,
    description:
      'a duration (30s, 5m, 1h30m) overriding every material; "" polling disabled; null no override',
  }),
});

export function registerProjectTriggerRoutes(api: Api, triggers: Triggers): void {
  api.post('/api/v1/projects/:slug/sync', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Re-poll every git material of the project now',
      description:
        "Polls (git ls-remote) each git material of the project's active pipelines in the background, whatever " +
        'the polling settings. A new revision starts one run (cause `poll`) in each pipeline watching it that ' +
        'has not run for that revision. The first look at a material only records its head. `materials` is how ' +
        'many repository/branch pairs are polled.',
      params: SlugParams,
      'x-body-optional': true,
      response: {
        202: Type.Object({ materials: Type.Integer({ minimum: 0 }) }),
        ...errors(400, 404),
      },
    },
    handler: async (request, reply) => reply.code(202).send(await triggers.syncProject(request.params.slug)),
  });

  api.get('/api/v1/projects/:slug/poll-interval', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: "The project's poll-interval override",
      params: SlugParams,
      response: { 200: PollInterval, ...errors(400, 404) },
    },
    handler: async (request) => triggers.settings.pollInterval(request.params.slug),
  });

  api.put('/api/v1/projects/:slug/poll-interval', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Override how often the git materials of the project are polled',
      description:
        '`{"interval": "5m"}` polls every git material of the project at that interval (1s..7d), whatever its ' +
        'own `poll_interval`; `{"interval": ""}` disables polling for the project; `{"interval": null}` removes ' +
        "the override so each material's `poll_interval` applies again. Anything else is 400.",
      params: SlugParams,
      body: PollInterval,
      response: { 200: PollInterval, ...errors(400, 404) },
    },
    handler: async (request) => triggers.settings.setPollInterval(request.params.slug, request.body.interval),
  });

  api.get('/api/v1/projects/:slug/crons', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: 'Cron schedules of the project',
      params: SlugParams,
      response: { 200: Type.Object({ crons: Type.Array(CronSchedule) }), ...errors(400, 404) },
    },
    handler: async (request) => ({ crons: await triggers.settings.listCrons(request.params.slug) }),
  });

  api.post('/api/v1/projects/:slug/crons', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Add a cron schedule',
      description:
        'Each firing starts one run (cause `cron`) of each listed pipeline (every active pipeline when ' +
        '`pipeline_ids` is empty or absent) at the head of its default branch, once across all replicas. ' +
        'Names are unique in the project (409); at most 100 schedules per project.',
      params: SlugParams,
      body: Type.Object({
        name: CronFields.name,
        expression: CronFields.expression,
        pipeline_ids: Type.Optional(CronFields.pipeline_ids),
        enabled: Type.Optional(CronFields.enabled),
      }),
      response: { 201: CronSchedule, ...errors(400, 404, 409) },
    },
    handler: async (request, reply) => {
      const schedule = await triggers.settings.createCron(request.params.slug, request.body);
      request.auditNote = { target: `project_cron:${schedule.id}` };
      return reply.code(201).send(schedule);
    },
  });

  api.put('/api/v1/projects/:slug/crons/:id', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Change a cron schedule',
      description: 'Fields left out keep their values.',
      params: CronParams,
      body: Type.Object({
        name: Type.Optional(CronFields.name),
        expression: Type.Optional(CronFields.expression),
        pipeline_ids: Type.Optional(CronFields.pipeline_ids),
        enabled: Type.Optional(CronFields.enabled),
      }),
      response: { 200: CronSchedule, ...errors(400, 404, 409) },
    },
    handler: async (request) =>
      triggers.settings.updateCron(request.params.slug, request.params.id, request.body),
  });

  api.delete('/api/v1/projects/:slug/crons/:id', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Remove a cron schedule',
      params: CronParams,
      response: { 204: NoContent, ...errors(400, 404) },
    },
    handler: async (request, reply) => {
      await triggers.settings.deleteCron(request.params.slug, request.params.id);
      return reply.code(204).send();
    },
  });
}

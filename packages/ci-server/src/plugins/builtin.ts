// The built-in plugin manifests: the material, report, artifact and cache capabilities the control plane and
// its agents ship with, described as data so the catalog (GET /api/v1/plugins) lists them beside the extra
// manifests named by CI_CONFIG `plugins.manifest_dirs`.
import type { PluginManifest } from './manifest.js';

export const BUILTIN_PLUGINS: readonly PluginManifest[] = [
  {
    name: 'git',
    version: '1.0.0',
    kind: 'material',
    description: 'Watches a branch of a git repository (webhooks and polling) and checks it out for jobs.',
    config_schema: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', description: 'clone URL (https, ssh or file)' },
        branch: { type: 'string', default: 'main' },
        poll_interval: { type: 'string', description: 'duration such as 5m; empty disables polling' },
      },
    },
  },
  {
    name: 'cron',
    version: '1.0.0',
    kind: 'material',
    description: 'Starts the pipeline on a schedule (5-field cron expression, evaluated in UTC).',
    config_schema: {
      type: 'object',
      required: ['expression'],
      additionalProperties: false,
      properties: { expression: { type: 'string', description: '5-field cron or @hourly/@daily/…' } },
    },
  },
  {
    name: 'junit',
    version: '1.0.0',
    kind: 'test-report',
    description: 'Parses JUnit XML reports written by a job and shows them as the run’s test results.',
    config_schema: {
      type: 'object',
      required: ['paths'],
      additionalProperties: false,
      properties: { paths: { type: 'array', items: { type: 'string' }, description: 'glob patterns' } },
    },
  },
  {
    name: 'artifacts',
    version: '1.0.0',
    kind: 'artifact',
    description: 'Uploads files a job produced; runs list them with short-lived signed download links.',
    config_schema: {
      type: 'object',
      required: ['paths'],
      additionalProperties: false,
      properties: {
        paths: { type: 'array', items: { type: 'string' }, description: 'glob patterns' },
        expire_in: { type: 'string', description: 'duration such as 7d' },
      },
    },
  },
  {
    name: 'cache',
    version: '1.0.0',
    kind: 'cache',
    description: 'Restores and saves folders between runs of a project under a key (first upload wins).',
    config_schema: {
      type: 'object',
      required: ['key', 'paths'],
      additionalProperties: false,
      properties: {
        key: { type: 'string', maxLength: 1000 },
        paths: { type: 'array', items: { type: 'string' } },
      },
    },
  },
];

// A pipeline's status badge for READMEs: GET /api/v1/projects/{slug}/pipelines/{name}/badge.svg, an SVG
// saying "<pipeline> | passing" (or failing, running, canceled, unknown) for the pipeline's latest run,
// optionally on one branch (`?branch=main`). Public on purpose, as badges are on every hosted CI (a README
// image is fetched without credentials): it tells anyone who knows the project slug and pipeline name the
// latest run's status, nothing else — and an unknown project or pipeline gets the same "unknown" badge as one
// that never ran, so the route does not confirm which exist. Documented in docs/ci-api.md.
import { Type } from 'typebox';
import { latestRunStatus } from '../services/projects.js';
import type { Api, ApiContext } from './context.js';
import { Slug } from './schemas.js';

const LOOK: Record<string, { text: string; colour: string }> = {
  success: { text: 'passing', colour: '#2e7d32' },
  failed: { text: 'failing', colour: '#c62828' },
  running: { text: 'running', colour: '#1565c0' },
  queued: { text: 'queued', colour: '#6d6d6d' },
  canceled: { text: 'canceled', colour: '#6d6d6d' },
};
const UNKNOWN = { text: 'unknown', colour: '#9e9e9e' };

const escapeXml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** Roughly Verdana 11px: wide enough for the text, so the two halves never overlap. */
const widthOf = (s: string) => Math.round(s.length * 6.6 + 12);

/** The badge for `status` (a run status, or null: never ran / unknown). */
export function badgeSvg(label: string, status: string | null): string {
  const look = (status && LOOK[status]) || UNKNOWN;
  const left = label.length > 40 ? `${label.slice(0, 39)}…` : label;
  const [lw, rw] = [widthOf(left), widthOf(look.text)];
  const [l, r] = [escapeXml(left), escapeXml(look.text)];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${l}: ${r}">
<title>${l}: ${r}</title>
<rect width="${lw}" height="20" fill="#555"/>
<rect x="${lw}" width="${rw}" height="20" fill="${look.colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${l}</text>
<text x="${lw + rw / 2}" y="14">${r}</text>
</g>
</svg>
`;
}

export function registerPipelineBadge(api: Api, ctx: ApiContext): void {
  api.get('/api/v1/projects/:slug/pipelines/:name/badge.svg', {
    config: { access: 'public' },
    schema: {
      tags: ['pipelines'],
      summary: "The pipeline's status badge (SVG) for READMEs",
      description:
        "Public (no authentication, as README images are fetched anonymously): the latest run's status of the " +
        'pipeline, optionally of one branch — passing, failing, running, queued, canceled, or unknown (no run, ' +
        'or no such project or pipeline: the answer does not say which exist). `Cache-Control: no-cache`.',
      params: Type.Object({ slug: Slug, name: Type.String({ minLength: 1, maxLength: 200 }) }),
      querystring: Type.Object(
        { branch: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
        { additionalProperties: false },
      ),
      response: { 200: Type.String({ description: 'image/svg+xml' }) },
    },
    handler: async (request, reply) => {
      const { slug, name } = request.params;
      const status = await latestRunStatus(ctx.db, slug, name, request.query.branch);
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', 'no-cache, max-age=0')
        .send(badgeSvg(name, status));
    },
  });
}

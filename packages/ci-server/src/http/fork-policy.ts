// The project's fork policy (docs/ci-triggers.md, "Pull requests from forks"): what a pull request from a
// fork starts — a run that waits for a maintainer (default), a run at once, or nothing — which authors are
// trusted to skip the approval, and whether such runs get secrets. Read needs viewer, write maintainer.
import { Type } from 'typebox';
import { MAX_TRUSTED_AUTHORS, ON_FORK } from '../triggers/fork-policy.js';
import type { Triggers } from '../triggers/index.js';
import type { Api } from './context.js';
import { errors, SlugParams } from './schemas.js';

const OnFork = Type.Union([Type.Literal(ON_FORK[0]), Type.Literal(ON_FORK[1]), Type.Literal(ON_FORK[2])], {
  description:
    'approve: the run waits for a maintainer (POST /runs/{id}/approve); run: it runs at once; skip: no run',
});
const TrustedAuthors = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: MAX_TRUSTED_AUTHORS,
  description:
    'host accounts (GitHub login, GitLab username, Bitbucket nickname; any case) whose fork pull requests run without approval',
});
const AllowSecrets = Type.Boolean({
  description: "whether runs of fork pull requests get the project's and global secrets (default false)",
});

const PolicyView = Type.Object({
  on_fork: OnFork,
  trusted_authors: TrustedAuthors,
  allow_secrets: AllowSecrets,
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'when it was last set; null while the project has the default',
  }),
});

const PolicyBody = Type.Object(
  {
    on_fork: Type.Optional(OnFork),
    trusted_authors: Type.Optional(TrustedAuthors),
    allow_secrets: Type.Optional(AllowSecrets),
  },
  { additionalProperties: false },
);

export function registerForkPolicyRoutes(api: Api, triggers: Triggers): void {
  api.get('/api/v1/projects/:slug/fork-policy', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: 'What pull requests from forks start in this project',
      description:
        'Default `{on_fork: "approve", trusted_authors: [], allow_secrets: false}`: a pull request whose head ' +
        'repository is not the base repository (GitHub), whose source project is not the target project ' +
        '(GitLab) or whose source repository is not the destination (Bitbucket) starts a run that waits for a ' +
        'maintainer and whose jobs get no secrets.',
      params: SlugParams,
      response: { 200: PolicyView, ...errors(400, 404) },
    },
    handler: async (request) => triggers.settings.forkPolicy(request.params.slug),
  });

  api.put('/api/v1/projects/:slug/fork-policy', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Set what pull requests from forks start in this project',
      description:
        'Replaces the policy; a field left out takes its default (`approve`, no trusted authors, no secrets). ' +
        'Trusted authors skip the approval; secrets follow `allow_secrets` for every fork run, approved or ' +
        'not. Applies to deliveries received after the change. The change is audited.',
      params: SlugParams,
      body: PolicyBody,
      response: { 200: PolicyView, ...errors(400, 404) },
    },
    handler: async (request) => triggers.settings.setForkPolicy(request.params.slug, request.body),
  });
}

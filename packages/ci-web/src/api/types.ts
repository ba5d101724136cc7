// Wire shapes of the control-plane API the UI reads, as aliases of the types generated from the server's
// OpenAPI description (@app/web-kit/api/ci, `npm run gen:api -w packages/web-kit`); hand-written here are
// only the UI's own shapes (the role list, run statuses, a user with its role narrowed) and the parts of a
// material the description leaves open.
import type { ResponseOf } from '@app/web-kit';
import type { paths } from '@app/web-kit/api/ci';

export type Role = 'viewer' | 'maintainer' | 'admin';

/** A user as the pages read it: the generated answer of `/api/v1/me`, its `role` (a string in the API's
 * description) narrowed to the roles the server gives. */
export type User = Omit<ResponseOf<paths, '/api/v1/me'>, 'role'> & { role: Role };
/** A user as an answer carries it, read as a `User` (the server gives only the three roles). */
export const asUser = (u: ResponseOf<paths, '/api/v1/me'>): User => u as User;

export type RunStatus = 'queued' | 'running' | 'success' | 'failed' | 'canceled';
export const RUN_STATUSES: RunStatus[] = ['queued', 'running', 'success', 'failed', 'canceled'];
export const TERMINAL: string[] = ['success', 'failed', 'canceled'];

// ---------- generated from the control plane's OpenAPI description ----------
export type Project = ResponseOf<paths, '/api/v1/projects'>['projects'][number];
export type RunPage = ResponseOf<paths, '/api/v1/runs'>;
export type RunDetail = ResponseOf<paths, '/api/v1/runs/{id}'>;
export type Agent = ResponseOf<paths, '/api/v1/agents'>['agents'][number];
export type RunTests = ResponseOf<paths, '/api/v1/runs/{id}/tests'>;
export type RunSummary = RunPage['runs'][number];
export type ProjectDetail = ResponseOf<paths, '/api/v1/projects/{slug}'>;
export type Stage = RunDetail['stages'][number];
export type JobRun = Stage['jobs'][number];
export type GateInfo = NonNullable<JobRun['gate']>;
export type GateDecision = GateInfo['decisions'][number];
export type LogLine = JobRun['logs'][number];
export type TestCase = RunTests['cases'][number];
export type Artifact = ResponseOf<paths, '/api/v1/runs/{id}/artifacts'>['artifacts'][number];
export type ApiToken = ResponseOf<paths, '/api/v1/account/api-tokens'>['tokens'][number];
export type Secret = ResponseOf<paths, '/api/v1/projects/{slug}/secrets'>['secrets'][number];
export type Provider = ResponseOf<paths, '/auth/providers'>['providers'][number];
export type PipelineEntry = ProjectDetail['pipelines'][number];
/** A material: the generated `{kind, fingerprint}` plus what the API describes only as "as in the YAML". */
export type Material = PipelineEntry['materials'][number] & {
  git?: { url: string; branch?: string };
  upstream?: { pipeline: string; stage?: string; status?: string };
  cron?: { expression: string };
};
export type Vsm = ResponseOf<paths, '/api/v1/projects/{slug}/vsm'>;
export type VsmNode = Vsm['nodes'][number];
export type VsmEdge = Vsm['edges'][number];

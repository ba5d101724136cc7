// In-process doubles of the three forges' status APIs (node http on 127.0.0.1), answering like the real hosts:
// GitHub `POST /repos/{owner}/{repo}/statuses/{sha}` (Bearer token, 201, 401 "Bad credentials", 422 on a bad
// state or a description over 140 characters), GitLab `POST /api/v4/projects/{url-encoded path}/statuses/{sha}`
// (PRIVATE-TOKEN or Bearer, 201, 401, 400 on an unknown state or a transition GitLab refuses, such as the same
// running state twice), Bitbucket Cloud `POST /2.0/repositories/{workspace}/{slug}/commit/{sha}/statuses/build`
// (Basic app password or Bearer, 201 for a new key and 200 for an update, 401, 400 without key, state or
// url). Each records the statuses it accepted; `failNext` makes the next calls answer 500.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ForgeKind = 'github' | 'gitlab' | 'bitbucket';

export interface AcceptedStatus {
  repository: string;
  sha: string;
  state: string;
  /** context (GitHub), name (GitLab, Bitbucket). */
  context: string;
  targetUrl: string;
  description: string;
  key?: string;
}

export interface ForgeDouble {
  kind: ForgeKind;
  /** The API root to configure (`api_url`). */
  apiUrl: string;
  statuses: AcceptedStatus[];
  /** Every request seen, accepted or not: method, path, status answered, headers. */
  seen: { path: string; answered: number; headers: IncomingMessage['headers'] }[];
  failNext(count: number): void;
  close(): Promise<void>;
}

const STATES: Record<ForgeKind, string[]> = {
  github: ['pending', 'success', 'failure', 'error'],
  gitlab: ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'],
  bitbucket: ['INPROGRESS', 'SUCCESSFUL', 'FAILED', 'STOPPED'],
};

interface Answer {
  status: number;
  body: unknown;
}

/** `credentials` GitHub/GitLab: the token; Bitbucket: `user:app-password` for Basic, or a token for Bearer. */
export async function startForgeDouble(kind: ForgeKind, credentials: string): Promise<ForgeDouble> {
  const statuses: AcceptedStatus[] = [];
  const seen: ForgeDouble['seen'] = [];
  let failures = 0;
  const authorised = (h: IncomingMessage['headers']): boolean => {
    const auth = String(h.authorization ?? '');
    if (kind === 'github') return auth === `Bearer ${credentials}`;
    if (kind === 'gitlab') return h['private-token'] === credentials || auth === `Bearer ${credentials}`;
    if (credentials.includes(':')) return auth === `Basic ${Buffer.from(credentials).toString('base64')}`;
    return auth === `Bearer ${credentials}`;
  };
  const handle = (method: string, path: string, h: IncomingMessage['headers'], raw: string): Answer => {
    if (failures > 0) {
      failures--;
      return { status: 500, body: { message: 'Server Error' } };
    }
    const route = ROUTES[kind].exec(path);
    if (method !== 'POST' || !route) return { status: 404, body: { message: 'Not Found' } };
    if (!authorised(h)) return UNAUTHORISED[kind];
    if (!String(h['content-type'] ?? '').startsWith('application/json'))
      return { status: 415, body: { message: 'Unsupported Media Type' } };
    if (kind === 'github' && !String(h.accept ?? '').includes('application/vnd.github+json'))
      return { status: 415, body: { message: 'expected Accept: application/vnd.github+json' } };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      return { status: 400, body: { message: 'Problems parsing JSON' } };
    }
    const repository = kind === 'gitlab' ? decodeURIComponent(route[1]) : `${route[1]}/${route[2]}`;
    const sha = kind === 'gitlab' ? route[2] : route[3];
    if (kind === 'gitlab' && !route[1].includes('%2F'))
      return { status: 404, body: { message: '404 Project Not Found' } };
    const state = String(body.state ?? '');
    const context = String((kind === 'github' ? body.context : body.name) ?? 'default');
    const targetUrl = String((kind === 'bitbucket' ? body.url : body.target_url) ?? '');
    const description = String(body.description ?? '');
    if (!STATES[kind].includes(state)) return invalid(kind, `state "${state}" is not valid`);
    if (!/^https?:\/\/.+\/runs\/[0-9a-f-]{36}$/.test(targetUrl))
      return invalid(kind, `the link "${targetUrl}" is not a run page`);
    if (kind === 'github' && description.length > 140)
      return invalid(kind, 'description is too long (maximum is 140 characters)');
    const previous = statuses.filter((s) => s.sha === sha && s.context === context).at(-1);
    if (kind === 'gitlab' && previous?.state === state && ['pending', 'running'].includes(state))
      return { status: 400, body: { message: `Cannot transition status via :${state} from :${state}` } };
    if (kind === 'bitbucket' && (typeof body.key !== 'string' || body.key.length > 40))
      return {
        status: 400,
        body: { type: 'error', error: { message: 'key: a key of at most 40 characters is required' } },
      };
    const accepted: AcceptedStatus = { repository, sha, state, context, targetUrl, description };
    if (kind === 'bitbucket') accepted.key = String(body.key);
    const updated = kind === 'bitbucket' && statuses.some((s) => s.sha === sha && s.key === accepted.key);
    statuses.push(accepted);
    const at = new Date().toISOString();
    if (kind === 'github')
      return {
        status: 201,
        body: {
          id: statuses.length,
          state,
          description,
          target_url: targetUrl,
          context,
          created_at: at,
          updated_at: at,
        },
      };
    if (kind === 'gitlab')
      return {
        status: 201,
        body: {
          id: statuses.length,
          sha,
          status: state,
          name: context,
          target_url: targetUrl,
          description,
          created_at: at,
        },
      };
    return {
      status: updated ? 200 : 201,
      body: {
        type: 'build',
        key: accepted.key,
        state,
        url: targetUrl,
        name: context,
        description,
        created_on: at,
        updated_on: at,
      },
    };
  };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const answer = handle(req.method ?? 'GET', path, req.headers, Buffer.concat(parts).toString('utf8'));
      seen.push({ path, answered: answer.status, headers: req.headers });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const root = { github: '', gitlab: '/api/v4', bitbucket: '/2.0' }[kind];
  return {
    kind,
    apiUrl: `http://127.0.0.1:${port}${root}`,
    statuses,
    seen,
    failNext(count) {
      failures = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const ROUTES: Record<ForgeKind, RegExp> = {
  github: /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]{40})$/,
  gitlab: /^\/api\/v4\/projects\/([^/]+)\/statuses\/([0-9a-f]{40})$/,
  bitbucket: /^\/2\.0\/repositories\/([^/]+)\/([^/]+)\/commit\/([0-9a-f]{7,40})\/statuses\/build$/,
};

const UNAUTHORISED: Record<ForgeKind, Answer> = {
  github: {
    status: 401,
    body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
  },
  gitlab: { status: 401, body: { message: '401 Unauthorized' } },
  bitbucket: { status: 401, body: { type: 'error', error: { message: 'Access token expired or invalid' } } },
};

function invalid(kind: ForgeKind, message: string): Answer {
  if (kind === 'github')
    return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'Status', message }] } };
  if (kind === 'gitlab') return { status: 400, body: { message } };
  return { status: 400, body: { type: 'error', error: { message } } };
}

// Agent fleet read routes: GET /api/v1/agents and /api/v1/agents/{id}. Agents register themselves over
// gRPC; the API only reads them. The status shown is computed at read time so a server that died without
// marking its agents offline still shows them right: `offline` when the row says so or no heartbeat came
// for AGENT_SILENT_MS, `busy` while it holds jobs, else `online`.
import { notFound } from '@app/kit';
import { Type } from 'typebox';
import { jobRunDisplayName } from '../domain/index.js';
import { type AgentRow, findAgent, heldJobsOf, listAgents } from '../store/agent-fleet.js';
import type { StoreDb } from '../store/database.js';
import type { Api } from './context.js';
import { errors, IdParams, Uuid } from './schemas.js';

/** An agent not heard from for this long is offline, whatever its row says. */
export const AGENT_SILENT_MS = 60_000;

const RunningJob = Type.Object({
  job_run_id: Uuid,
  run_id: Uuid,
  job_name: Type.String(),
  status: Type.String({ description: '`queued` (assigned, not started yet) or `running`' }),
  started_at: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' }),
});

export const AgentView = Type.Object({
  id: Uuid,
  name: Type.String(),
  tags: Type.Array(Type.String()),
  capacity: Type.Integer({ minimum: 1 }),
  status: Type.Enum(['online', 'busy', 'offline']),
  version: Type.String(),
  hostname: Type.String(),
  running_jobs: Type.Array(RunningJob),
  last_heartbeat_at: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' }),
  registered_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    format: 'date-time',
    description: 'when an admin revoked the agent (POST /api/v1/admin/agents/{id}/revoke); null otherwise',
  }),
});

async function viewsOf(db: StoreDb, agents: AgentRow[], now = Date.now()) {
  const ids = agents.map((a) => a.id);
  const jobs = await heldJobsOf(db, ids);
  const byAgent = new Map<string, typeof jobs>();
  for (const j of jobs) {
    const list = byAgent.get(j.lease_agent_id!) ?? [];
    list.push(j);
    byAgent.set(j.lease_agent_id!, list);
  }
  return agents.map((a) => {
    const held = byAgent.get(a.id) ?? [];
    const silent = !a.last_heartbeat_at || Date.parse(a.last_heartbeat_at) < now - AGENT_SILENT_MS;
    const status = a.status === 'offline' || silent ? 'offline' : held.length > 0 ? 'busy' : 'online';
    return {
      id: a.id,
      name: a.name,
      tags: parseTags(a.tags),
      capacity: Math.max(1, Number(a.capacity)),
      status: status as 'online' | 'busy' | 'offline',
      version: a.version,
      hostname: a.hostname,
      running_jobs: held.map((j) => ({
        job_run_id: j.id,
        run_id: j.run_id,
        job_name: jobRunDisplayName(j.name, parseMatrix(j.matrix)),
        status: j.status,
        started_at: j.started_at,
      })),
      last_heartbeat_at: a.last_heartbeat_at,
      registered_at: a.registered_at,
      revoked_at: a.revoked_at ?? null,
    };
  });
}

export function registerAgentRoutes(api: Api, db: StoreDb): void {
  api.get('/api/v1/agents', {
    config: { access: 'admin' },
    schema: {
      tags: ['agents'],
      summary: 'The agent fleet',
      description:
        'Agents by name, with their tags, capacity, status (`online`, `busy` while holding jobs, `offline` ' +
        'when disconnected or silent for 60 s), the jobs they hold, last heartbeat and version. Read-only: ' +
        'agents register themselves over gRPC.',
      querystring: Type.Object(
        {
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
          offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 }),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          agents: Type.Array(AgentView),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
        ...errors(400),
      },
    },
    handler: async (request) => {
      const { limit, offset } = request.query;
      const { rows, total } = await listAgents(db, { limit, offset });
      return { agents: await viewsOf(db, rows), total, limit, offset };
    },
  });

  api.get('/api/v1/agents/:id', {
    config: { access: 'admin' },
    schema: {
      tags: ['agents'],
      summary: 'One agent',
      params: IdParams,
      querystring: Type.Object({}, { additionalProperties: false }),
      response: { 200: AgentView, ...errors(400, 404) },
    },
    handler: async (request) => {
      const id = request.params.id.toLowerCase();
      const row = await findAgent(db, id);
      if (!row) throw notFound(`agent ${id} does not exist`);
      return (await viewsOf(db, [row]))[0];
    },
  });
}

function parseTags(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

function parseMatrix(text: string): Record<string, string> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

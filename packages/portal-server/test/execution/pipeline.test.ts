// The one governed execution function (src/execution/pipeline.ts) against the real PostgreSQL of the kit
// harness, with the real session governance and its concurrency limiter: the slot is held while a statement
// runs, and a thrown provider error, a timeout and a client going away each free it.
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ManagedDatasource } from '../../src/datasources/types.js';
import { type AuditEvent, createQueryDeps, type QueryDeps } from '../../src/execution/contracts.js';
import { executeGoverned, type GovernedRequest } from '../../src/execution/pipeline.js';
import { resolveTarget, splitChecked } from '../../src/execution/target.js';
import { ApprovalService } from '../../src/governance/approvals.js';
import { ConcurrencyLimiter } from '../../src/governance/concurrency.js';
import { PolicyHooks } from '../../src/governance/session-governance.js';
import { declared } from '../datasources/declare.js';
import { descriptorFromUrl } from '../query/harness.js';

const ALICE = { username: 'alice', role: 'user' as const };
let deps: QueryDeps & { close(): Promise<void> };
const concurrency = new ConcurrencyLimiter();
const events: AuditEvent[] = [];

function managed(id: string, extra: Record<string, unknown> = {}): ManagedDatasource {
  return declared(id, { ...connection, ...extra }, { maxConcurrent: 1 });
}
let connection: ReturnType<typeof descriptorFromUrl>;

beforeAll(async () => {
  const url = await createPostgresDatabase(inject('services').postgresUrl);
  connection = descriptorFromUrl(url, 'postgres');
  const sources = new Map([managed('pg'), managed('pg-slow', { queryTimeout: 500 })].map((m) => [m.id, m]));
  const audit = { record: (e: AuditEvent) => void events.push(e) };
  deps = await createQueryDeps({
    dataDir: tempDir('portal-pipeline-'),
    sessions: { requireSession: () => ALICE },
    managed: { getManaged: (id) => sources.get(id) },
    audit,
    governance: new PolicyHooks({
      approvals: new ApprovalService({
        repository: undefined,
        ttlHours: 1,
        directory: { get: () => undefined, list: () => [] },
      }),
      concurrency,
      audit,
      maskingKey: Buffer.alloc(32, 1),
    }),
  });
});

afterAll(async () => {
  await deps?.close();
});

/** A governed run of one statement on datasource `id`; `run` defaults to a plain query. */
async function governed<T = unknown>(
  id: string,
  sql: string,
  extra: Partial<GovernedRequest<T>> = {},
): Promise<T> {
  const target = await resolveTarget(deps, ALICE, { connectionId: id });
  const statements = splitChecked(target, sql);
  return executeGoverned<T>(deps, {
    principal: ALICE,
    route: 'query',
    auditRoute: 'test',
    target,
    sql,
    statements,
    params: [],
    run: async (exec) => (await exec.query(statements[0], [], { maxRows: 10 })) as T,
    ...extra,
  });
}

async function failure(p: Promise<unknown>): Promise<{ statusCode?: number; code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as { statusCode?: number; code?: string };
  }
  throw new Error('expected the execution to fail');
}

describe('executeGoverned', () => {
  it('holds the datasource slot while the statement runs, so a second one is refused with 429', async () => {
    let refused: { statusCode?: number; code?: string } | undefined;
    await governed('pg', 'SELECT 1 AS one', {
      run: async (exec) => {
        expect(concurrency.inUse('pg')).toBe(1);
        refused = await failure(governed('pg', 'SELECT 2'));
        return exec.query('SELECT 1 AS one', [], { maxRows: 10 });
      },
    });
    expect(refused).toMatchObject({ statusCode: 429, code: 'CONCURRENCY_LIMIT' });
    expect(concurrency.inUse('pg')).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'query_execution', result: 'success', connection: 'pg' });
  });

  it('frees the slot when the provider throws', async () => {
    const err = await failure(governed('pg', 'SELECT * FROM no_such_table'));
    expect(err).toMatchObject({ statusCode: 400, code: 'QUERY_ERROR' });
    expect(concurrency.inUse('pg')).toBe(0);
    expect(events.at(-1)).toMatchObject({ result: 'failure', errorCode: 'QUERY_ERROR' });
    await expect(governed('pg', 'SELECT 1')).resolves.toBeDefined();
  });

  it('frees the slot when the statement times out', async () => {
    const err = await failure(governed('pg-slow', 'SELECT pg_sleep(5)'));
    expect(err).toMatchObject({ statusCode: 408, code: 'QUERY_TIMEOUT' });
    expect(concurrency.inUse('pg-slow')).toBe(0);
    await expect(governed('pg-slow', 'SELECT 1')).resolves.toBeDefined();
  });

  it('frees the slot and cancels the statement when the client goes away', async () => {
    const client = new AbortController();
    const err = await failure(
      governed('pg', 'SELECT pg_sleep(30)', {
        signal: client.signal,
        // The client leaves once the statement is running on the server.
        run: (exec) => exec.query('SELECT pg_sleep(30)', [], { maxRows: 10, onStart: () => client.abort() }),
      }),
    );
    expect(err).toMatchObject({ code: 'QUERY_CANCELLED' });
    expect(concurrency.inUse('pg')).toBe(0);
    await expect(governed('pg', 'SELECT 1')).resolves.toBeDefined();
  });

  it('frees the slot when the run itself throws, and never opens a connection for a refused request', async () => {
    const err = await failure(
      governed('pg', 'SELECT 1', {
        run: async () => {
          throw new Error('shaping the answer failed');
        },
      }),
    );
    expect((err as Error).message).toMatch(/shaping the answer failed/);
    expect(concurrency.inUse('pg')).toBe(0);
    let ran = false;
    const refused = await failure(
      governed('pg', 'SELECT 1', {
        preflight: () => {
          throw Object.assign(new Error('no'), { statusCode: 400, code: 'BAD_REQUEST' });
        },
        run: async () => {
          ran = true;
        },
      }),
    );
    expect(refused.code).toBe('BAD_REQUEST');
    expect(ran).toBe(false);
  });
});

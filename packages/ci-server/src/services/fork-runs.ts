// Runs built from a fork's pull request (docs/ci-triggers.md): held for a maintainer's approval in GitHub's
// "approve and run" way — the run stays `queued` and the jobs its first stage released wait in
// `awaiting_approval` (gates keep waiting for their own approvers) — and recorded in `fork_runs` with the
// reason, whether secrets are withheld and who approved. Pure snapshot edits plus the row's reads and writes;
// RunService runs them inside its locked transaction.
import type { Effect, RunSnapshot, Transition } from '../domain/index.js';
import { currentJobs } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import { nowIso } from '../store/ids.js';

export interface ForkRunInfo {
  headRepository: string | null;
  author: string | null;
  reason: string;
  awaitingApproval: boolean;
  secretsWithheld: boolean;
  approvedBy?: string | null;
}

/** The fork facts a run detail shows. */
export interface ForkRunView {
  head_repository: string | null;
  author: string | null;
  reason: string;
  awaiting_approval: boolean;
  secrets_withheld: boolean;
  approved_by: string | null;
  approved_at: string | null;
  comment: string | null;
}

/**
 * Holds a freshly started run: every job the first stage queued waits in `awaiting_approval` instead, and its
 * `enqueue` effects are dropped so no agent is offered it.
 */
export function holdStartedRun(run: RunSnapshot, effects: Effect[]): Effect[] {
  for (const stage of run.stages)
    for (const row of currentJobs(stage)) if (row.status === 'queued') row.status = 'awaiting_approval';
  return effects.filter((e) => e.kind !== 'enqueue');
}

/** Releases a held run: its waiting build jobs are queued for agents (gates keep waiting). */
export function releaseHeldRun(run: RunSnapshot): Transition {
  const next = structuredClone(run);
  const effects: Effect[] = [];
  for (const stage of next.stages) {
    if (stage.status !== 'running') continue;
    for (const row of currentJobs(stage)) {
      if (row.status !== 'awaiting_approval' || row.isGate) continue;
      row.status = 'queued';
      effects.push({ kind: 'enqueue', jobId: row.id });
    }
  }
  return { ok: true, run: next, effects };
}

export async function insertForkRun(trx: StoreDb, runId: string, info: ForkRunInfo): Promise<void> {
  const now = nowIso();
  await trx
    .insertInto('fork_runs')
    .values({
      run_id: runId,
      head_repository: info.headRepository?.slice(0, 500) ?? null,
      author: info.author?.slice(0, 200) ?? null,
      reason: info.reason.slice(0, 2000),
      awaiting_approval: info.awaitingApproval ? 1 : 0,
      secrets_withheld: info.secretsWithheld ? 1 : 0,
      approved_by: info.approvedBy ?? null,
      approved_at: info.approvedBy ? now : null,
      comment: null,
      created_at: now,
    })
    .execute();
}

export async function forkRunOf(db: StoreDb, runId: string): Promise<ForkRunView | null> {
  const row = await db.selectFrom('fork_runs').selectAll().where('run_id', '=', runId).executeTakeFirst();
  if (!row) return null;
  return {
    head_repository: row.head_repository,
    author: row.author,
    reason: row.reason,
    awaiting_approval: row.awaiting_approval === 1,
    secrets_withheld: row.secrets_withheld === 1,
    approved_by: row.approved_by,
    approved_at: row.approved_at,
    comment: row.comment,
  };
}

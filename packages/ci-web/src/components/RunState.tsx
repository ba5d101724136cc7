// A run's state as people read it: the status badge, except that an unfinished run which waits (for its
// turn in a serial concurrency group, for a maintainer to approve a fork's pull request, or at a manual gate)
// says that instead of "queued"/"running", with the server's sentence as its title; a run canceled by a
// newer one says which (docs/ci-api.md, "Why a run waits").
import type { RunSummary } from '../api/types';
import { Link } from '../lib/router';

const LABEL: Record<string, string> = {
  concurrency: 'waiting (serial)',
  fork_approval: 'awaiting fork approval',
  approval: 'awaiting approval',
};

/** The state in words, as the badge reads: why a waiting run waits, else its status. */
export function runStateText(run: Pick<RunSummary, 'status' | 'waiting'>): string {
  return run.waiting ? (LABEL[run.waiting.reason] ?? 'waiting') : run.status.replace(/_/g, ' ');
}

export function RunStateBadge({ run }: { run: Pick<RunSummary, 'status' | 'waiting'> }) {
  const w = run.waiting;
  if (!w) return <span className={`badge badge-${run.status.replace(/[^a-z_]/g, '')}`}>{run.status}</span>;
  return (
    <span className="badge badge-awaiting_approval" title={w.message} data-waiting={w.reason}>
      {LABEL[w.reason] ?? 'waiting'}
    </span>
  );
}

/** The one-line reason under a run's header (or beside a row): why it waits, or who superseded it. */
export function RunStateNote({ run }: { run: Pick<RunSummary, 'waiting' | 'superseded_by'> }) {
  if (run.waiting)
    return (
      <span className="muted" data-testid="run-waiting">
        {run.waiting.run_id ? (
          <>
            {run.waiting.message.replace(/run #\d+.*$/, '')}
            <Link href={`/runs/${run.waiting.run_id}`}>{run.waiting.message.match(/run #\d+.*$/)?.[0]}</Link>
          </>
        ) : (
          run.waiting.message
        )}
      </span>
    );
  if (run.superseded_by)
    return (
      <span className="muted" data-testid="run-superseded">
        superseded by{' '}
        <Link href={`/runs/${run.superseded_by.run_id}`}>
          {run.superseded_by.pipeline_name} #{run.superseded_by.counter}
        </Link>
      </span>
    );
  return null;
}

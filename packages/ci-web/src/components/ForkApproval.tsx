// A run of a pull request from a fork: where the code comes from, why the run waits or has no secrets,
// and for maintainers the "Approve run" button (GitHub's "approve and run") with an optional comment; once
// approved, who approved it and when.
import { Button } from '@app/web-kit';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import type { RunDetail } from '../api/types';
import { ErrorNote, Time } from './ui';

export function ForkApproval({
  run,
  canApprove,
  onDone,
}: {
  run: RunDetail;
  canApprove: boolean;
  onDone: () => void;
}) {
  const [comment, setComment] = useState('');
  const approve = useMutation({
    mutationFn: () =>
      api.post(`/api/v1/runs/${run.id}/approve`, comment.trim() ? { comment: comment.trim() } : {}),
    onSuccess: () => {
      setComment('');
      onDone();
    },
  });
  const fork = run.fork;
  if (!fork) return null;
  return (
    <section className="card fork-run" aria-label="Pull request from a fork">
      <p>
        <strong>Pull request from a fork</strong>
        {fork.head_repository && <span className="mono"> {fork.head_repository}</span>}
        {fork.author && <> by {fork.author}</>}.{' '}
        {fork.secrets_withheld ? 'Its jobs get no secrets.' : 'Its jobs get the project secrets.'}
      </p>
      <p className="small">{fork.reason}</p>
      {fork.approved_by && (
        <p className="small">
          Approved by <strong>{fork.approved_by}</strong>
          {fork.approved_at && (
            <>
              {' '}
              <Time at={fork.approved_at} />
            </>
          )}
          {fork.comment && <q className="gate-comment">{fork.comment}</q>}
        </p>
      )}
      {fork.awaiting_approval &&
        (canApprove ? (
          <fieldset className="gate" aria-label="Approval for this run">
            <legend>This run waits for a maintainer to approve it.</legend>
            <div className="row wrap">
              <label className="inline grow">
                Comment
                <input value={comment} maxLength={10_000} onChange={(e) => setComment(e.target.value)} />
              </label>
              <Button variant="primary" busy={approve.isPending} onClick={() => approve.mutate()}>
                Approve run
              </Button>
            </div>
            <ErrorNote error={approve.error} />
          </fieldset>
        ) : (
          <em>Waiting for a maintainer to approve the run.</em>
        ))}
    </section>
  );
}

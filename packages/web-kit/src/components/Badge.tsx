// A small coloured label. `tone` names a meaning, not a colour, so both themes can pick their own shade;
// `statusTone` maps the usual run/job/approval states of both services onto tones.
import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'running';

export function Badge({
  tone = 'neutral',
  children,
  title,
}: {
  tone?: Tone;
  children: ReactNode;
  title?: string;
}) {
  return (
    <span className={`kit-badge kit-badge--${tone}`} title={title}>
      {children}
    </span>
  );
}

const TONES: Record<string, Tone> = {
  success: 'success',
  passed: 'success',
  approved: 'success',
  online: 'success',
  idle: 'success',
  failed: 'danger',
  error: 'danger',
  rejected: 'danger',
  timed_out: 'danger',
  offline: 'danger',
  canceled: 'neutral',
  skipped: 'neutral',
  queued: 'info',
  pending: 'info',
  waiting: 'info',
  scheduled: 'info',
  running: 'running',
  busy: 'running',
  assigned: 'running',
  awaiting_approval: 'warning',
  flaky: 'warning',
};

export function statusTone(status: string): Tone {
  return TONES[status] ?? 'neutral';
}

/** A badge for a status word, shown with spaces instead of underscores. */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{status.replaceAll('_', ' ')}</Badge>;
}

// The empty and error states every list and page shows instead of a blank area: what is missing or what went
// wrong, in words a person can act on, and the one action that helps (create the first thing, try again).
import type { ReactNode } from 'react';
import { ApiError } from '../api/client';
import { Button } from './Button';

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="kit-state kit-state--empty">
      <p className="kit-state-title">{title}</p>
      {children && <div className="kit-state-body">{children}</div>}
      {action && <div className="kit-state-action">{action}</div>}
    </div>
  );
}

/** The message of any thrown value, with the status for API errors. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.status ? `${error.message} (${error.status})` : error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorState({
  error,
  title = 'Something went wrong',
  onRetry,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}) {
  return (
    <div className="kit-state kit-state--error" role="alert">
      <p className="kit-state-title">{title}</p>
      <p className="kit-state-body">{errorText(error)}</p>
      {onRetry && (
        <div className="kit-state-action">
          <Button onClick={onRetry}>Try again</Button>
        </div>
      )}
    </div>
  );
}

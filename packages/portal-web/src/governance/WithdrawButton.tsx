// The requester's "Withdraw request" button (`POST /api/approvals/{id}/withdraw`), shown on their own
// pending requests: on the approvals page and in the held-write notice of the workspace.
import { Button } from '@app/web-kit';
import { useState } from 'react';
import { api, errorText } from '../lib/api';
import type { Approval } from '../lib/types';

/** The requester takes back their own pending request (`POST /api/approvals/{id}/withdraw`). */
export function WithdrawButton(props: { approval: Approval; onDone: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="toolbar">
      <Button
        size="sm"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await api(`/api/approvals/${encodeURIComponent(props.approval.id)}/withdraw`, {
              method: 'POST',
              body: {},
            });
            props.onDone();
          } catch (err) {
            setError(errorText(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        Withdraw request
      </Button>
      {error && (
        <span className="error-text" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

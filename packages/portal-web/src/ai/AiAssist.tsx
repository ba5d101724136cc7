// The editor's AI buttons: "Explain" and "Safety" send the editor's statement to /api/ai/explain and
// /api/ai/query-safety and show the model's text beside the server's own verdict (read or write, decided by
// the classifier, never by the model). Hidden when AI is not configured.
import { Button } from '@app/web-kit';
import { useState } from 'react';
import { type Answer, ApiError, apiPost, errorText } from '../lib/api';
import type { Connection } from '../lib/types';

/** The server's classification of the statement (never the model's), from its OpenAPI description. */
type Verdict = Answer<'/api/ai/explain', 'post'>['classification'];

type State =
  | { kind: 'idle' }
  | { kind: 'busy'; feature: string }
  | { kind: 'answer'; feature: string; text: string; verdict: Verdict }
  | { kind: 'error'; message: string };

export function AiAssist({ connection, sql }: { connection: Connection; sql: string }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [off, setOff] = useState(false);
  if (off) return null;
  const ask = async (feature: 'explain' | 'query-safety') => {
    setState({ kind: 'busy', feature });
    try {
      const body = connection.managed
        ? { sql, connectionId: connection.id }
        : { sql, dialect: connection.type };
      const r = await apiPost(feature === 'explain' ? '/api/ai/explain' : '/api/ai/query-safety', body);
      setState({ kind: 'answer', feature, text: r.text, verdict: r.classification });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'AI_NOT_CONFIGURED') setOff(true);
      setState({ kind: 'error', message: errorText(err) });
    }
  };
  const busy = state.kind === 'busy';
  return (
    <section className="ai-assist" aria-label="AI assistance">
      <div className="ai-assist-buttons">
        <Button size="sm" disabled={busy || !sql.trim()} onClick={() => ask('explain')}>
          {busy && state.feature === 'explain' ? 'Asking the model…' : 'AI summary'}
        </Button>
        <Button size="sm" disabled={busy || !sql.trim()} onClick={() => ask('query-safety')}>
          {busy && state.feature === 'query-safety' ? 'Reviewing…' : 'AI safety'}
        </Button>
      </div>
      {state.kind === 'answer' && (
        <div className="ai-answer" role="status">
          <p>
            <span className={`badge ${state.verdict.isWrite ? 'ai-write' : 'ai-read'}`}>
              server verdict: {state.verdict.isWrite ? 'write' : 'read-only'}
            </span>{' '}
            {state.verdict.statements.map((s) => (
              <span key={s.index} className="badge">
                {s.statementType}
                {s.doubtful ? ' (doubtful)' : ''}
              </span>
            ))}
            {state.verdict.guardrails.map((g) => (
              <span key={g} className="badge approval">
                {g}
              </span>
            ))}
          </p>
          <p className="ai-text">{state.text}</p>
        </div>
      )}
      {state.kind === 'error' && (
        <p className="error-text small" role="alert">
          {state.message}
        </p>
      )}
    </section>
  );
}

// The AI features' one mount point in the workspace: the editor's explain/safety buttons and the agent
// panel, so the page that hosts the editor places them with a single element. Whether AI is configured is
// read once from /api/agent/config (the agent is available exactly when a model is), so without a model the
// buttons are not offered and the panel says why.
import './ai.css';
import { useEffect, useState } from 'react';
import { type Answer, apiGet, errorText } from '../lib/api';
import type { Connection } from '../lib/types';
import { AgentPanel } from './AgentPanel';
import { AiAssist } from './AiAssist';

/** Whether AI is configured, and why not (`GET /api/agent/config`). */
export type AiConfig = Answer<'/api/agent/config'>;

export function AiTools(props: { connection: Connection; sql: string; onUseSql: (sql: string) => void }) {
  const [config, setConfig] = useState<AiConfig | null>(null);
  useEffect(() => {
    apiGet('/api/agent/config')
      .then(setConfig)
      .catch((err) => setConfig({ enabled: false, reason: errorText(err) }));
  }, []);
  if (!config) return null;
  return (
    <div className="ai-tools">
      {config.enabled && <AiAssist connection={props.connection} sql={props.sql} />}
      <AgentPanel
        key={props.connection.id}
        config={config}
        connection={props.connection}
        onUseSql={props.onUseSql}
      />
    </div>
  );
}

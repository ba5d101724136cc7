// The AI features' one mount point in the workspace: the editor's explain/safety buttons and the agent
// panel, so the page that hosts the editor places them with a single element.
import './ai.css';
import type { Connection } from '../lib/types';
import { AgentPanel } from './AgentPanel';
import { AiAssist } from './AiAssist';

export function AiTools(props: { connection: Connection; sql: string; onUseSql: (sql: string) => void }) {
  return (
    <div className="ai-tools">
      <AiAssist connection={props.connection} sql={props.sql} />
      <AgentPanel key={props.connection.id} connection={props.connection} onUseSql={props.onUseSql} />
    </div>
  );
}

// Administration (administrators only; the server checks every route again): the audit log, the service
// tokens of the bot API, and the managed datasources with their policies, fleet health and maintenance.
import { useState } from 'react';
import { AuditLog } from '../admin/AuditLog';
import { Datasources } from '../admin/Datasources';
import { ServiceTokens } from '../admin/ServiceTokens';

export function AdminPage() {
  const [tab, setTab] = useState<'audit' | 'tokens' | 'datasources'>('audit');
  return (
    <div className="page-body">
      <div className="page-head">
        <h1>Administration</h1>
        <div className="tabs" role="tablist" aria-label="Administration sections">
          <button type="button" role="tab" aria-selected={tab === 'audit'} onClick={() => setTab('audit')}>
            Audit log
          </button>
          <button type="button" role="tab" aria-selected={tab === 'tokens'} onClick={() => setTab('tokens')}>
            Service tokens
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'datasources'}
            onClick={() => setTab('datasources')}
          >
            Datasources
          </button>
        </div>
      </div>
      {tab === 'audit' && <AuditLog />}
      {tab === 'tokens' && <ServiceTokens />}
      {tab === 'datasources' && <Datasources />}
    </div>
  );
}

// Administration (administrators only; the server checks every route again): the audit log, the service
// tokens of the bot API, the managed datasources with their policies, fleet health and maintenance, seed data
// and least-privilege accounts.
import { useState } from 'react';
import { AccountProvisioning } from '../admin/AccountProvisioning';
import { AuditLog } from '../admin/AuditLog';
import { Datasources } from '../admin/Datasources';
import { SeedData } from '../admin/SeedData';
import { ServiceTokens } from '../admin/ServiceTokens';

export function AdminPage() {
  const [tab, setTab] = useState<'audit' | 'tokens' | 'datasources' | 'seed' | 'accounts'>('audit');
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
          <button type="button" role="tab" aria-selected={tab === 'seed'} onClick={() => setTab('seed')}>
            Seed data
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'accounts'}
            onClick={() => setTab('accounts')}
          >
            Accounts
          </button>
        </div>
      </div>
      {tab === 'audit' && <AuditLog />}
      {tab === 'tokens' && <ServiceTokens />}
      {tab === 'datasources' && <Datasources />}
      {tab === 'seed' && <SeedData />}
      {tab === 'accounts' && <AccountProvisioning />}
    </div>
  );
}

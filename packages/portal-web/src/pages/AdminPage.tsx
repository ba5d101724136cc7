// Administration (administrators only; the server checks every route again): the audit log, the service
// tokens of the bot API, the managed datasources with their policies, fleet health and maintenance, seed data
// and least-privilege accounts.
import { useState } from 'react';
import { AccountProvisioning } from '../admin/AccountProvisioning';
import { AuditLog } from '../admin/AuditLog';
import { Datasources } from '../admin/Datasources';
import { SeedData } from '../admin/SeedData';
import { ServiceTokens } from '../admin/ServiceTokens';

/** The sections in tab order: one row per section, so a new one is one line. */
const SECTIONS = [
  { id: 'audit', label: 'Audit log', Panel: AuditLog },
  { id: 'tokens', label: 'Service tokens', Panel: ServiceTokens },
  { id: 'datasources', label: 'Datasources', Panel: Datasources },
  { id: 'seed', label: 'Seed data', Panel: SeedData },
  { id: 'accounts', label: 'Accounts', Panel: AccountProvisioning },
] as const;

export function AdminPage() {
  const [tab, setTab] = useState<(typeof SECTIONS)[number]['id']>('audit');
  const Panel = SECTIONS.find((s) => s.id === tab)?.Panel ?? AuditLog;
  return (
    <div className="page-body">
      <div className="page-head">
        <h1>Administration</h1>
        <div className="tabs" role="tablist" aria-label="Administration sections">
          {SECTIONS.map((s) => (
            <button
              key={s.id}
              type="button"
              role="tab"
              aria-selected={tab === s.id}
              onClick={() => setTab(s.id)}
            >
              {s.label}
            </button>
          ))}
        </div>
      </div>
      <Panel />
    </div>
  );
}

// Managed datasources for administrators: each with its engine, environment and policy in words (read-only,
// approvals, reviewers, tickets, freeze windows, masking, limits), the fleet's health (`POST
// /api/admin/fleet-health`, one fresh connection per datasource, with a warning when the datasource account is
// privileged: superuser, FILE, SUPER, admin commands) and the engine's maintenance operations
// (`POST /api/db/maintenance`, offered from provider-meta `maintenanceOperations`, hidden where an engine has
// none).
import { Button } from '@app/web-kit';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { apiPost, errorText } from '../lib/api';
import { useManagedConnections } from '../lib/connections';
import { useEngines } from '../lib/engines';
import type { Connection, EngineMeta } from '../lib/types';

type MaintenanceOp = EngineMeta['capabilities']['maintenanceOperations'][number];

function policyWords(c: Connection): string[] {
  const p = (c.policy ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  if (p.readOnly) out.push('read-only');
  if (p.writeApproval)
    out.push(`writes need ${Number(p.approvalsRequired ?? 1) === 2 ? 'two approvals' : 'approval'}`);
  if (Array.isArray(p.approverRoles) && p.approverRoles.length)
    out.push(`reviewers: ${p.approverRoles.join(', ')}`);
  if (p.requireTicket) out.push('ticket required');
  if (p.guardrails === false) out.push('guardrails off');
  if (Array.isArray(p.freezeWindows) && p.freezeWindows.length)
    out.push(`${p.freezeWindows.length} freeze window(s)`);
  if (Array.isArray(p.masking) && p.masking.length)
    out.push(
      `masked: ${(p.masking as { column: string; rule: string }[]).map((m) => `${m.column} (${m.rule})`).join(', ')}`,
    );
  if (typeof p.maxRows === 'number') out.push(`max ${p.maxRows} rows`);
  if (typeof p.maxConcurrent === 'number') out.push(`max ${p.maxConcurrent} concurrent`);
  if (Array.isArray(p.exportRoles)) out.push(`export: ${p.exportRoles.join(', ') || 'nobody'}`);
  return out;
}

function Maintenance({ c, ops }: { c: Connection; ops: MaintenanceOp[] }) {
  const [type, setType] = useState(ops[0]?.type ?? '');
  const [target, setTarget] = useState('');
  const op = ops.find((o) => o.type === type);
  const run = useMutation({
    mutationFn: () =>
      apiPost('/api/db/maintenance', {
        connection: { id: c.id, name: c.name, type: c.type },
        type,
        ...(target.trim() ? { target: target.trim() } : {}),
      }),
  });
  return (
    <form
      className="inline-form"
      aria-label={`Maintenance of ${c.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        run.mutate();
      }}
    >
      <select aria-label="Operation" value={type} onChange={(e) => setType(e.target.value)}>
        {ops.map((o) => (
          <option key={o.type} value={o.type} title={o.description}>
            {o.type}
          </option>
        ))}
      </select>
      {op?.targetRequired && (
        <input
          aria-label="Target"
          placeholder="target (required)"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
        />
      )}
      <Button type="submit" size="sm" disabled={run.isPending || (op?.targetRequired && !target.trim())}>
        {run.isPending ? 'Running…' : 'Run'}
      </Button>
      {run.isSuccess && (
        <span className="ok-text small" role="status">
          {type} done in {run.data.executionTime} ms
        </span>
      )}
      {run.isError && (
        <span className="error-text small" role="alert">
          {errorText(run.error)}
        </span>
      )}
    </form>
  );
}

export function Datasources() {
  const managed = useManagedConnections();
  const engines = useEngines();
  const fleet = useMutation({
    mutationFn: (ids: string[]) =>
      apiPost('/api/admin/fleet-health', { connections: ids.map((id) => ({ id })) }),
  });
  const list = managed.data ?? [];
  const health = new Map((fleet.data?.results ?? []).map((r) => [r.connectionId, r]));
  return (
    <section aria-label="Managed datasources">
      <div className="page-head">
        <h2>Managed datasources</h2>
        <Button
          disabled={fleet.isPending || list.length === 0}
          onClick={() => fleet.mutate(list.map((c) => c.id))}
        >
          {fleet.isPending ? 'Checking…' : 'Check fleet health'}
        </Button>
        {fleet.isError && (
          <span className="error-text small" role="alert">
            {errorText(fleet.error)}
          </span>
        )}
      </div>
      {managed.isError && (
        <p className="error-text" role="alert">
          {errorText(managed.error)}
        </p>
      )}
      {managed.data && list.length === 0 && (
        <p className="muted">
          No managed datasources. Declare them in the file PORTAL_DATASOURCES names
          (docs/portal-datasources.md).
        </p>
      )}
      <table className="grid" aria-label="Datasources">
        <thead>
          <tr>
            <th>Datasource</th>
            <th>Engine</th>
            <th>Environment</th>
            <th>Policy</th>
            <th>Health</th>
            <th>Maintenance</th>
          </tr>
        </thead>
        <tbody>
          {list.map((c) => {
            const h = health.get(c.id);
            const ops =
              engines.data?.find((e) => e.engine === c.type)?.capabilities.maintenanceOperations ?? [];
            return (
              <tr key={c.id}>
                <td>
                  <strong>{c.name}</strong>
                  <div className="muted small mono">{c.id}</div>
                  {c.available === false && (
                    <div className="error-text small">{c.unavailableReason ?? 'unavailable'}</div>
                  )}
                </td>
                <td>{c.type}</td>
                <td>{c.environment ?? ''}</td>
                <td className="small">
                  {policyWords(c).join(' · ') || <span className="muted">no policy</span>}
                </td>
                <td data-testid={`health-${c.id}`}>
                  {h ? (
                    h.status === 'ok' ? (
                      <>
                        <span className="badge status-approved">ok · {h.latencyMs} ms</span>
                        {h.privileges && h.privileges.length > 0 && (
                          <div
                            className="error-text small"
                            role="alert"
                            data-testid={`privileges-${c.id}`}
                            title={h.warning}
                          >
                            Privileged account: {h.privileges.join(', ')}. Create a least-privilege account
                            under Accounts (account provisioning).
                          </div>
                        )}
                      </>
                    ) : (
                      <span className="badge status-rejected" title={h.error}>
                        error
                      </span>
                    )
                  ) : (
                    <span className="muted small">not checked</span>
                  )}
                </td>
                <td>
                  {ops.length > 0 ? (
                    <Maintenance c={c} ops={ops} />
                  ) : (
                    <span className="muted small">none for {c.type}</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

// Server settings for administrators, one tab each: retention statistics and quotas, the artifact storage
// backend, global secrets (names only; values are write-only), service accounts with their tokens (a token's
// secret is shown once), and identity providers.
import { Badge, Button, EmptyState, ErrorState, LoadingState, Tabs } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, enc } from '../../api/client';
import type {
  AuthProviders,
  GlobalSecrets,
  RetentionStats,
  ServiceAccounts,
  ServiceAccountToken,
  StorageSettings,
} from '../../api/schema';
import { ErrorNote, PageHeader, Time } from '../../components/ui';
import { bytes } from '../../lib/format';
import { navigate, useLocation } from '../../lib/router';

const TABS = [
  { id: 'retention', label: 'Retention' },
  { id: 'storage', label: 'Storage' },
  { id: 'secrets', label: 'Global secrets' },
  { id: 'service-accounts', label: 'Service accounts' },
  { id: 'providers', label: 'Identity providers' },
];

export function AdminSettingsPage() {
  const { search } = useLocation();
  const tab = TABS.some((t) => t.id === search.get('tab')) ? (search.get('tab') as string) : 'retention';
  return (
    <>
      <PageHeader title="Settings" sub="Server-wide settings; every change is audited." />
      <Tabs
        items={TABS}
        value={tab}
        onChange={(id) => navigate(`/admin/settings?tab=${id}`)}
        label="Settings"
      >
        <div className="tab-body">
          {tab === 'retention' && <Retention />}
          {tab === 'storage' && <Storage />}
          {tab === 'secrets' && <Secrets />}
          {tab === 'service-accounts' && <ServiceAccountsTab />}
          {tab === 'providers' && <Providers />}
        </div>
      </Tabs>
    </>
  );
}

function Retention() {
  const q = useQuery({
    queryKey: ['retention'],
    queryFn: () => api.get<RetentionStats>('/api/v1/admin/retention'),
  });
  if (q.isLoading) return <LoadingState />;
  if (!q.data) return <ErrorState error={q.error} onRetry={() => q.refetch()} />;
  const { totals, quotas, log_archive, last_run_at } = q.data;
  return (
    <>
      <p>
        Last retention pass: <Time at={last_run_at} />
      </p>
      <dl className="facts" aria-label="Retention totals">
        <Fact k="Runs" v={totals.runs.toLocaleString()} />
        <Fact k="Log lines" v={totals.log_lines.toLocaleString()} />
        <Fact k="Artifacts" v={`${totals.artifacts.toLocaleString()} (${bytes(totals.artifact_bytes)})`} />
        <Fact
          k="Cache entries"
          v={`${totals.cache_entries.toLocaleString()} (${bytes(totals.cache_bytes)})`}
        />
      </dl>
      <h3>Quotas</h3>
      <dl className="facts" aria-label="Retention quotas">
        <Fact k="Runs kept per pipeline" v={String(quotas.runs_per_pipeline)} />
        <Fact k="Logs kept" v={`${quotas.log_days} days`} />
        <Fact k="Artifacts kept" v={`${quotas.artifact_days} days, ${bytes(quotas.artifact_bytes)}`} />
        <Fact
          k="Caches"
          v={`idle ${quotas.cache_idle_days} days, ${bytes(quotas.cache_bytes_per_project)}/project`}
        />
        <Fact k="Log archive" v={log_archive.enabled ? `after ${log_archive.after_days} days` : 'off'} />
      </dl>
    </>
  );
}

function Fact({ k, v }: { k: string; v: string }) {
  return (
    <div>
      <dt>{k}</dt>
      <dd>{v}</dd>
    </div>
  );
}

function Storage() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['storage'],
    queryFn: () => api.get<StorageSettings>('/api/v1/admin/storage'),
  });
  const [path, setPath] = useState('');
  const save = useMutation({
    mutationFn: () => api.put<StorageSettings>('/api/v1/admin/storage', { backend: 'filesystem', path }),
    onSuccess: (d) => client.setQueryData(['storage'], d),
  });
  if (q.isLoading) return <LoadingState />;
  if (!q.data) return <ErrorState error={q.error} onRetry={() => q.refetch()} />;
  return (
    <>
      <dl className="facts" aria-label="Artifact storage">
        <Fact k="Backend" v={q.data.backend} />
        <Fact k="Path" v={q.data.path} />
        <Fact k="Set by" v={q.data.source} />
      </dl>
      {q.data.restart_required && <Badge tone="warning">restart required to apply</Badge>}
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label className="inline grow">
          New filesystem path
          <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/var/lib/ci/artifacts" />
        </label>
        <Button type="submit" variant="primary" busy={save.isPending} disabled={!path.trim()}>
          Save
        </Button>
      </form>
      <ErrorNote error={save.error} />
    </>
  );
}

function Secrets() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['global-secrets'],
    queryFn: () => api.get<GlobalSecrets>('/api/v1/admin/secrets'),
  });
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ['global-secrets'] });
  const add = useMutation({
    mutationFn: () => api.post('/api/v1/admin/secrets', { name, value }),
    onSuccess: () => {
      setName('');
      setValue('');
      refresh();
    },
  });
  const del = useMutation({
    mutationFn: (n: string) => api.del(`/api/v1/admin/secrets/${enc(n)}`),
    onSuccess: refresh,
  });
  return (
    <>
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <label className="inline">
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="DEPLOY_KEY" />
        </label>
        <label className="inline grow">
          Value
          <input
            type="password"
            value={value}
            autoComplete="off"
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <Button type="submit" variant="primary" busy={add.isPending} disabled={!name || !value}>
          Save secret
        </Button>
      </form>
      <ErrorNote error={add.error ?? del.error} />
      {q.isLoading && <LoadingState />}
      {q.error && <ErrorState error={q.error} />}
      {q.data && q.data.secrets.length === 0 && <EmptyState title="No global secrets." />}
      {q.data && q.data.secrets.length > 0 && (
        <table className="table" aria-label="Global secrets">
          <thead>
            <tr>
              <th>Name</th>
              <th>Updated</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {q.data.secrets.map((s) => (
              <tr key={s.name}>
                <td className="mono">{s.name}</td>
                <td>
                  <Time at={s.updated_at} />
                </td>
                <td className="right">
                  <Button size="sm" variant="danger" onClick={() => del.mutate(s.name)}>
                    Delete
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function ServiceAccountsTab() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['service-accounts'],
    queryFn: () => api.get<ServiceAccounts>('/api/v1/admin/service-accounts?limit=200&offset=0'),
  });
  const [name, setName] = useState('');
  const [role, setRole] = useState('viewer');
  const [secret, setSecret] = useState<{ account: string; token: string } | null>(null);
  const create = useMutation({
    mutationFn: () => api.post('/api/v1/admin/service-accounts', { name, role }),
    onSuccess: () => {
      setName('');
      client.invalidateQueries({ queryKey: ['service-accounts'] });
    },
  });
  const mint = useMutation({
    mutationFn: (a: { id: string; name: string }) =>
      api
        .post<ServiceAccountToken>(`/api/v1/admin/service-accounts/${enc(a.id)}/tokens`, { name: 'ui' })
        .then((t) => ({ account: a.name, token: String((t as { token?: string }).token ?? '') })),
    onSuccess: setSecret,
  });
  return (
    <>
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label className="inline">
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="deploy-bot" />
        </label>
        <label className="inline">
          Role
          <select value={role} onChange={(e) => setRole(e.target.value)}>
            <option>viewer</option>
            <option>maintainer</option>
            <option>admin</option>
          </select>
        </label>
        <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
          Create service account
        </Button>
      </form>
      <ErrorNote error={create.error ?? mint.error} />
      {secret && (
        <div className="note note-success" role="status">
          Token for {secret.account} (shown once): <code>{secret.token}</code>
        </div>
      )}
      {q.isLoading && <LoadingState />}
      {q.error && <ErrorState error={q.error} />}
      {q.data && q.data.service_accounts.length === 0 && <EmptyState title="No service accounts." />}
      {q.data && q.data.service_accounts.length > 0 && (
        <table className="table" aria-label="Service accounts">
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {q.data.service_accounts.map((a) => (
              <tr key={a.id}>
                <td>{a.name}</td>
                <td>{a.role}</td>
                <td>
                  <Time at={a.created_at} />
                </td>
                <td className="right">
                  <Button size="sm" onClick={() => mint.mutate(a)}>
                    New token
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Providers() {
  const q = useQuery({
    queryKey: ['providers'],
    queryFn: () => api.get<AuthProviders>('/api/v1/admin/auth/providers'),
  });
  if (q.isLoading) return <LoadingState />;
  if (!q.data) return <ErrorState error={q.error} onRetry={() => q.refetch()} />;
  if (q.data.providers.length === 0)
    return (
      <EmptyState title="No identity providers.">
        Add an OIDC provider with <code>POST /api/v1/admin/auth/providers</code> or in the server
        configuration.
      </EmptyState>
    );
  return (
    <table className="table" aria-label="Identity providers">
      <thead>
        <tr>
          <th>Name</th>
          <th>Issuer</th>
          <th>Client</th>
          <th>Role claim</th>
          <th>Default role</th>
          <th>Source</th>
        </tr>
      </thead>
      <tbody>
        {q.data.providers.map((p) => (
          <tr key={p.id}>
            <td>{p.display}</td>
            <td className="mono small">{p.issuer}</td>
            <td className="mono small">
              {p.client_id} {p.has_client_secret && <Badge>secret set</Badge>}
            </td>
            <td>{p.role_claim ?? '—'}</td>
            <td>{p.default_role}</td>
            <td>{p.source}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

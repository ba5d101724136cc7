// Server settings for administrators, one tab each: retention statistics and quotas, the artifact storage
// backend, global secrets (names only; values are write-only), service accounts with their tokens (a token's
// secret is shown once), and identity providers. Retention, storage and identity providers are in their own
// files beside this one.
import { Button, EmptyState, Tabs } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, apiGet, apiPost, enc } from '../../api/client';
import type { Role } from '../../api/types';
import { QueryView } from '../../components/QueryView';
import { RoleSelect } from '../../components/RoleSelect';
import { SecretForm, SecretsTable } from '../../components/Secrets';
import { ErrorNote, InlineField, InlineForm, PageHeader, Time } from '../../components/ui';
import { navigate, useLocation } from '../../lib/router';
import { IdentityProviders } from './IdentityProviders';
import { Retention } from './RetentionSettings';
import { Storage } from './StorageSettings';

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
          {tab === 'providers' && <IdentityProviders />}
        </div>
      </Tabs>
    </>
  );
}

function Secrets() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['global-secrets'],
    queryFn: () => apiGet('/api/v1/admin/secrets'),
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
      <SecretForm
        name={name}
        value={value}
        onName={setName}
        onValue={setValue}
        onSubmit={() => add.mutate()}
        busy={add.isPending}
        placeholder="DEPLOY_KEY"
      />
      <ErrorNote error={add.error ?? del.error} />
      <QueryView
        query={q}
        isEmpty={(d) => d.secrets.length === 0}
        empty={<EmptyState title="No global secrets." />}
      >
        {(d) => (
          <SecretsTable
            label="Global secrets"
            secrets={d.secrets}
            action={(s) => (
              <Button
                size="sm"
                variant="danger"
                aria-label={`Delete secret ${s.name}`}
                onClick={() => del.mutate(s.name)}
              >
                Delete
              </Button>
            )}
          />
        )}
      </QueryView>
    </>
  );
}

function ServiceAccountsTab() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['service-accounts'],
    queryFn: () => apiGet('/api/v1/admin/service-accounts', { query: { limit: 200, offset: 0 } }),
  });
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
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
      apiPost('/api/v1/admin/service-accounts/{id}/tokens', { name: 'ui' }, { params: { id: a.id } }).then(
        (t) => ({ account: a.name, token: t.secret }),
      ),
    onSuccess: setSecret,
  });
  return (
    <>
      <InlineForm onSubmit={() => create.mutate()} label="Create a service account">
        <InlineField label="Name">
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="deploy-bot" />
        </InlineField>
        <RoleSelect label="Role" value={role} onChange={setRole} />
        <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
          Create service account
        </Button>
      </InlineForm>
      <ErrorNote error={create.error ?? mint.error} />
      {secret && (
        <div className="note note-success" role="status">
          Token for {secret.account} (shown once): <code>{secret.token}</code>
        </div>
      )}
      <QueryView
        query={q}
        isEmpty={(d) => d.service_accounts.length === 0}
        empty={<EmptyState title="No service accounts." />}
      >
        {(d) => (
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
              {d.service_accounts.map((a) => (
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
      </QueryView>
    </>
  );
}

// A project's secrets for maintainers: names and timestamps only (the server never returns values), a form
// to set one (a new name or a replacement value) and delete buttons with a confirmation step.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, apiGet, apiPost, enc } from '../api/client';
import { SecretForm, SecretsTable } from './Secrets';
import { ConfirmButton, Empty, ErrorNote, Loading, Notice } from './ui';

export function SecretsPanel({ slug }: { slug: string }) {
  const client = useQueryClient();
  const key = ['secrets', slug];
  const secrets = useQuery({
    queryKey: key,
    queryFn: () => apiGet('/api/v1/projects/{slug}/secrets', { params: { slug } }),
  });
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const put = useMutation({
    mutationFn: () =>
      apiPost('/api/v1/projects/{slug}/secrets', { name: name.trim(), value }, { params: { slug } }),
    onSuccess: (s) => {
      setSaved(s.name);
      setName('');
      setValue('');
      client.invalidateQueries({ queryKey: key });
    },
  });
  const remove = useMutation({
    mutationFn: (secret: string) => api.del(`/api/v1/projects/${enc(slug)}/secrets/${enc(secret)}`),
    onSuccess: () => {
      setConfirming(null);
      client.invalidateQueries({ queryKey: key });
    },
  });
  const list = secrets.data?.secrets ?? [];
  return (
    <section className="panel" aria-labelledby="secrets-title">
      <h2 id="secrets-title">Secrets</h2>
      <p className="muted small">Values are write-only: they are encrypted at rest and never shown again.</p>
      {secrets.isLoading && <Loading />}
      <ErrorNote error={secrets.error} />
      {secrets.data && list.length === 0 && <Empty>No project secrets.</Empty>}
      {list.length > 0 && (
        <SecretsTable
          label="Secrets"
          secrets={list}
          action={(s) => (
            <ConfirmButton
              label="Delete"
              name={`Delete secret ${s.name}`}
              confirmLabel="Confirm delete"
              asking={confirming === s.name}
              busy={remove.isPending}
              onAsk={() => setConfirming(s.name)}
              onKeep={() => setConfirming(null)}
              onConfirm={() => remove.mutate(s.name)}
            />
          )}
        />
      )}
      <ErrorNote error={remove.error} />
      <SecretForm
        name={name}
        value={value}
        onName={setName}
        onValue={setValue}
        busy={put.isPending}
        onSubmit={() => {
          setSaved(null);
          put.mutate();
        }}
      />
      <ErrorNote error={put.error} />
      {saved && <Notice kind="success">Secret {saved} saved.</Notice>}
    </section>
  );
}

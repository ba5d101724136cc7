// A project's triggers and settings, one tab each: how runs start (the pipelines' materials, cron schedules
// and the webhook addresses to give an SCM host), its settings (poll interval, log archive), its
// notifications (channels and the delivery history), where it reports commit statuses, and its caches with
// their sizes. Maintainers may set the polling, log-archive and commit-status settings and delete a cache
// entry.
import { Button, EmptyState, Tabs } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, api, apiGet, enc } from '../api/client';
import type { ProjectDetail } from '../api/types';
import { bytes } from '../lib/format';
import { materialText } from '../lib/materials';
import { CommitStatusSettings } from './CommitStatusSettings';
import { ProjectNotifications } from './NotificationDeliveries';
import { QueryView } from './QueryView';
import { ErrorNote, InlineField, InlineForm, Time } from './ui';

const SCM_HOSTS = [
  { id: 'github', label: 'GitHub' },
  { id: 'gitlab', label: 'GitLab' },
  { id: 'bitbucket', label: 'Bitbucket' },
];

/** The settings tab's two answers together. */
interface Settings {
  poll: Answer<'/api/v1/projects/{slug}/poll-interval'>;
  archive: Answer<'/api/v1/projects/{slug}/log-archive'>;
}

export function ProjectSettings({ project, canEdit }: { project: ProjectDetail; canEdit: boolean }) {
  const [tab, setTab] = useState('triggers');
  return (
    <section className="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">Triggers and settings</h2>
      <Tabs
        label="Project settings"
        value={tab}
        onChange={setTab}
        items={[
          { id: 'triggers', label: 'Triggers' },
          { id: 'settings', label: 'Settings' },
          { id: 'notifications', label: 'Notifications' },
          { id: 'commit-status', label: 'Commit status' },
          { id: 'caches', label: 'Caches' },
        ]}
      >
        <div className="tab-body">
          {tab === 'triggers' && <Triggers project={project} />}
          {tab === 'settings' && <SettingsView slug={project.slug} canEdit={canEdit} />}
          {tab === 'notifications' && <ProjectNotifications slug={project.slug} canEdit={canEdit} />}
          {tab === 'commit-status' && <CommitStatusSettings slug={project.slug} canEdit={canEdit} />}
          {tab === 'caches' && <CachesView slug={project.slug} canEdit={canEdit} />}
        </div>
      </Tabs>
    </section>
  );
}

function Triggers({ project }: { project: ProjectDetail }) {
  const crons = useQuery({
    queryKey: ['crons', project.slug],
    queryFn: () => apiGet('/api/v1/projects/{slug}/crons', { params: { slug: project.slug } }),
  });
  const origin = window.location.origin;
  return (
    <>
      <h3>Materials</h3>
      <ul className="plain-list" aria-label="Materials">
        {project.pipelines.flatMap((p) =>
          p.materials.map((m) => (
            <li key={`${p.id}-${m.fingerprint}`}>
              <strong>{p.name}</strong>: {materialText(m)}
            </li>
          )),
        )}
      </ul>
      <h3>Schedules</h3>
      <QueryView
        query={crons}
        isEmpty={(d) => d.crons.length === 0}
        empty={<p className="muted">No cron schedules.</p>}
      >
        {(d) => (
          <ul className="plain-list" aria-label="Cron schedules">
            {d.crons.map((c) => (
              <li key={c.id}>
                <code>{c.expression}</code> {c.name} {c.enabled ? '' : '(disabled)'} — next{' '}
                <Time at={c.next_run_at} />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <h3>Webhooks</h3>
      <p className="small">
        Point the repository's push webhook at the address of its host; a push starts every pipeline watching
        that repository and branch. Deliveries are listed under Admin → Webhook deliveries.
      </p>
      <ul className="plain-list" aria-label="Webhook addresses">
        {SCM_HOSTS.map((h) => (
          <li key={h.id}>
            {h.label}: <code>{`${origin}/api/webhooks/${h.id}`}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

function SettingsView({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  const q = useQuery({
    queryKey: ['project-settings', slug],
    queryFn: async (): Promise<Settings> => {
      const [poll, archive] = await Promise.all([
        apiGet('/api/v1/projects/{slug}/poll-interval', { params: { slug } }),
        apiGet('/api/v1/projects/{slug}/log-archive', { params: { slug } }),
      ]);
      return { poll, archive };
    },
  });
  return (
    <QueryView query={q}>
      {(d) => (
        <>
          <SettingsFacts settings={d} />
          {canEdit && <SettingsForms slug={slug} settings={d} />}
        </>
      )}
    </QueryView>
  );
}

function SettingsFacts({ settings: { poll, archive } }: { settings: Settings }) {
  return (
    <dl className="facts" aria-label="Project settings">
      <div>
        <dt>Poll interval</dt>
        <dd>
          {poll.interval === null
            ? "each material's own"
            : poll.interval === ''
              ? 'off (webhooks only)'
              : `every ${poll.interval}`}
        </dd>
      </div>
      <div>
        <dt>Log archive</dt>
        <dd>
          {archive.effective.enabled ? `after ${archive.effective.after}` : 'off'}
          {archive.override ? '' : ' (server default)'}
        </dd>
      </div>
    </dl>
  );
}

/**
 * The two overrides a maintainer sets here: how often the project's git materials are polled (the
 * materials' own `poll_interval`, a fixed interval, or never) and when finished jobs' logs are archived (the
 * server's setting, never, or a delay). Each form saves through its route and shows its 400 in words.
 */
function SettingsForms({ slug, settings }: { slug: string; settings: Settings }) {
  const client = useQueryClient();
  const base = `/api/v1/projects/${enc(slug)}`;
  const refresh = () => client.invalidateQueries({ queryKey: ['project-settings', slug] });
  const interval = settings.poll.interval;
  const [pollMode, setPollMode] = useState(
    interval === null ? 'materials' : interval === '' ? 'off' : 'every',
  );
  const [pollEvery, setPollEvery] = useState(interval || '5m');
  const override = settings.archive.override;
  const [archiveMode, setArchiveMode] = useState(
    override === null ? 'default' : override.enabled ? 'after' : 'off',
  );
  const [archiveAfter, setArchiveAfter] = useState(override?.after ?? settings.archive.effective.after);
  const poll = useMutation({
    mutationFn: () =>
      api.put(`${base}/poll-interval`, {
        interval: pollMode === 'materials' ? null : pollMode === 'off' ? '' : pollEvery.trim(),
      }),
    onSuccess: refresh,
  });
  const archive = useMutation({
    mutationFn: () =>
      api.put(`${base}/log-archive`, {
        override:
          archiveMode === 'default' ? null : { enabled: archiveMode === 'after', after: archiveAfter.trim() },
      }),
    onSuccess: refresh,
  });
  return (
    <div className="stack">
      <InlineForm label="Poll interval" onSubmit={() => poll.mutate()}>
        <InlineField label="Polling">
          <select value={pollMode} onChange={(e) => setPollMode(e.target.value)}>
            <option value="materials">as each material says</option>
            <option value="every">every</option>
            <option value="off">never (webhooks only)</option>
          </select>
        </InlineField>
        {pollMode === 'every' && (
          <InlineField label="Interval">
            <input
              value={pollEvery}
              onChange={(e) => setPollEvery(e.target.value)}
              placeholder="5m"
              size={8}
            />
          </InlineField>
        )}
        <Button type="submit" busy={poll.isPending}>
          Save polling
        </Button>
      </InlineForm>
      <ErrorNote error={poll.error} title="Polling was not changed" />
      <InlineForm label="Log archive" onSubmit={() => archive.mutate()}>
        <InlineField label="Log archive">
          <select value={archiveMode} onChange={(e) => setArchiveMode(e.target.value)}>
            <option value="default">the server's setting</option>
            <option value="after">archive after</option>
            <option value="off">never</option>
          </select>
        </InlineField>
        {archiveMode === 'after' && (
          <InlineField label="Delay">
            <input
              value={archiveAfter}
              onChange={(e) => setArchiveAfter(e.target.value)}
              placeholder="30d"
              size={8}
            />
          </InlineField>
        )}
        <Button type="submit" busy={archive.isPending}>
          Save log archive
        </Button>
      </InlineForm>
      <ErrorNote error={archive.error} title="The log archive was not changed" />
    </div>
  );
}

function CachesView({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['caches', slug],
    queryFn: () =>
      apiGet('/api/v1/projects/{slug}/caches', { params: { slug }, query: { limit: 100, offset: 0 } }),
  });
  const del = useMutation({
    mutationFn: (id: string) => api.del(`/api/v1/projects/${enc(slug)}/caches/${enc(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['caches', slug] }),
  });
  return (
    <QueryView query={q} isEmpty={(d) => d.caches.length === 0} empty={<EmptyState title="No caches yet." />}>
      {(d) => (
        <table className="table compact" aria-label="Caches">
          <thead>
            <tr>
              <th>Key</th>
              <th className="right">Size</th>
              <th>Last used</th>
              {canEdit && <th />}
            </tr>
          </thead>
          <tbody>
            {d.caches.map((c) => (
              <tr key={c.id}>
                <td className="mono small">{c.key}</td>
                <td className="right">{bytes(c.size_bytes)}</td>
                <td>
                  <Time at={c.last_used_at} />
                </td>
                {canEdit && (
                  <td className="right">
                    <Button size="sm" variant="danger" onClick={() => del.mutate(c.id)}>
                      Delete
                    </Button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </QueryView>
  );
}

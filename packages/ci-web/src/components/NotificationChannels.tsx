// A project's notification channels (GET/PUT /projects/{slug}/notifications): the list, and for maintainers
// a form that adds a channel (webhook, chat incoming webhook or email, with the events it wants) and a button
// that removes one. The route replaces the whole list, so each change sends the list as it should become;
// the server checks targets and events and its 400 message is shown as is.
import { Button } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, apiGet, apiPut } from '../api/client';
import { QueryView } from './QueryView';
import { ErrorNote, InlineField } from './ui';

type Channel = Answer<'/api/v1/projects/{slug}/notifications'>['channels'][number];
type Kind = Channel['kind'];
type ChannelEvent = Channel['events'][number];

/** The events a channel can want, with the words a person reads (the server's NOTIFICATION_EVENTS). */
const EVENTS: { id: ChannelEvent; label: string }[] = [
  { id: 'run.started', label: 'run started' },
  { id: 'run.succeeded', label: 'succeeded' },
  { id: 'run.failed', label: 'failed' },
  { id: 'run.canceled', label: 'canceled' },
  { id: 'run.fixed', label: 'fixed (first success after a failure)' },
  { id: 'gate.waiting', label: 'gate waiting' },
];
const KINDS: { id: Kind; label: string; placeholder: string }[] = [
  { id: 'chat', label: 'Chat (incoming webhook)', placeholder: 'https://hooks.slack.com/services/…' },
  { id: 'webhook', label: 'Webhook (signed JSON)', placeholder: 'https://deploy.example.com/ci-events' },
  { id: 'email', label: 'Email', placeholder: 'team@example.com' },
];

export function NotificationChannels({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  const client = useQueryClient();
  const key = ['notifications', slug];
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiGet('/api/v1/projects/{slug}/notifications', { params: { slug } }),
  });
  const put = useMutation({
    mutationFn: (channels: Channel[]) =>
      apiPut('/api/v1/projects/{slug}/notifications', { channels }, { params: { slug } }),
    onSuccess: (d) => client.setQueryData(key, d),
  });
  return (
    <>
      <QueryView
        query={q}
        isEmpty={(d) => d.channels.length === 0}
        empty={
          <p className="muted">
            No channels: notifications are off.{canEdit ? ' Add one below.' : ' A maintainer can add one.'}
          </p>
        }
      >
        {(d) => (
          <ul className="plain-list" aria-label="Notification channels">
            {d.channels.map((c, i) => (
              <li key={`${c.kind}-${c.target}`} className="row">
                <strong>{c.kind}</strong> <span className="mono">{c.target}</span>
                <span className="muted">({c.events.join(', ')})</span>
                {canEdit && !d.redacted && (
                  <Button
                    size="sm"
                    variant="danger"
                    aria-label={`Remove ${c.kind} channel ${c.target}`}
                    busy={put.isPending}
                    onClick={() => put.mutate(d.channels.filter((_, j) => j !== i))}
                  >
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      {canEdit && q.data && !q.data.redacted && (
        <AddChannel
          busy={put.isPending}
          onAdd={(c) => put.mutateAsync([...(q.data?.channels ?? []), c]).then(() => undefined)}
        />
      )}
      <ErrorNote error={put.error} title="The channels were not saved" />
    </>
  );
}

function AddChannel(props: { busy: boolean; onAdd(c: Channel): Promise<void> }) {
  const [kind, setKind] = useState<Kind>('chat');
  const [target, setTarget] = useState('');
  const [events, setEvents] = useState<ChannelEvent[]>(['run.failed', 'run.fixed']);
  const toggle = (id: ChannelEvent, on: boolean) =>
    setEvents((now) => EVENTS.map((e) => e.id).filter((e) => (e === id ? on : now.includes(e))));
  const shape = KINDS.find((k) => k.id === kind) ?? KINDS[0];
  return (
    <form
      className="stack panel"
      aria-label="Add a notification channel"
      onSubmit={(e) => {
        e.preventDefault();
        props
          .onAdd({ kind, target: target.trim(), events })
          .then(() => setTarget(''))
          .catch(() => undefined);
      }}
    >
      <div className="row wrap">
        <InlineField label="Channel">
          <select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            {KINDS.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
        </InlineField>
        <InlineField label={kind === 'email' ? 'Address' : 'URL'} grow>
          <input
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            placeholder={shape.placeholder}
            autoComplete="off"
          />
        </InlineField>
      </div>
      <fieldset>
        <legend>Events</legend>
        <div className="row wrap">
          {EVENTS.map((e) => (
            <label key={e.id} className="inline checkbox">
              <input
                type="checkbox"
                checked={events.includes(e.id)}
                onChange={(ev) => toggle(e.id, ev.target.checked)}
              />
              {e.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <Button
          type="submit"
          variant="primary"
          busy={props.busy}
          disabled={!target.trim() || events.length === 0}
        >
          Add channel
        </Button>
      </div>
    </form>
  );
}

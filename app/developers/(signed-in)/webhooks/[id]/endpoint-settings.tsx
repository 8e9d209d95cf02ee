'use client';
/** An endpoint's URL, description and event types, edited in place; the server's refusals show beside the field they concern. */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, Button, Card, Field, TextInput } from '../../../_components/ui';
import { useFormAction } from '../../../_lib/form';
import { portal } from '../../../_lib/trpc';
import { EventTypesField, type EventChoice } from '../event-types-field';

type Got = Awaited<ReturnType<typeof portal.webhooks.get.query>>;

export function EndpointSettings({ endpoint, types }: { endpoint: Got['endpoint']; types: Got['event_types'] }) {
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [events, setEvents] = useState<EventChoice>(endpoint.events);
  const [saved, setSaved] = useState(false);
  const queries = useQueryClient();
  const { submit, pending, error } = useFormAction(
    () => portal.webhooks.update.mutate({ id: endpoint.id, url, description: description || null, events }),
    () => {
      setSaved(true);
      void queries.invalidateQueries({ queryKey: ['webhooks'] });
    },
  );
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      setSaved(false);
      set(v);
    };
  return (
    <Card title="Settings">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="edit-url" label="Endpoint URL" error={error?.errors.url?.[0]}>
            <TextInput
              id="edit-url"
              type="url"
              value={url}
              onChange={(e) => edit(setUrl)(e.target.value)}
              error={error?.errors.url?.[0]}
            />
          </Field>
          <Field id="edit-description" label="Description (optional)" error={error?.errors.description?.[0]}>
            <TextInput
              id="edit-description"
              value={description}
              onChange={(e) => edit(setDescription)(e.target.value)}
              error={error?.errors.description?.[0]}
            />
          </Field>
        </div>
        <EventTypesField
          id="edit-events"
          types={types}
          value={events}
          onChange={edit(setEvents)}
          error={error?.errors.events?.[0]}
        />
        {error && !Object.keys(error.errors).length && <Alert>{error.message}</Alert>}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={pending}>
            {pending ? 'Saving…' : 'Save changes'}
          </Button>
          <span role="status" className="text-sm text-emerald-800">
            {saved ? 'Saved.' : ''}
          </span>
        </div>
      </form>
    </Card>
  );
}

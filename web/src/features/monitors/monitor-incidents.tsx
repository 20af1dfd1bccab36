import type { IncidentView } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../lib/format';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { FieldError, Label } from '../../ui/input';
import { Textarea } from '../../ui/textarea';
import { monitorIncidentsQuery, useNoteIncident } from './use-monitors';

const minutes = (from: string, to: string) => Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));

/**
 * A monitor's incidents (monitors-card.tsx loads this on first use): when each began and ended, why,
 * and its note, which the owner writes on a closed one: what happened, for next time.
 */
export function MonitorIncidents({ monitorId, readOnly = false }: { monitorId: string; readOnly?: boolean }) {
  const { data: incidents, isPending, error } = useQuery(monitorIncidentsQuery(monitorId));
  if (isPending) return <p className="text-sm text-muted-foreground">Loading incidents...</p>;
  if (error) return <p className="text-sm text-destructive">Failed to load incidents: {error.message}</p>;
  if (incidents.length === 0) return <p className="text-sm text-muted-foreground">No incidents yet.</p>;
  return (
    <ul className="space-y-2" aria-label="Incidents">
      {incidents.map((incident) => (
        <IncidentItem key={incident.id} monitorId={monitorId} incident={incident} readOnly={readOnly} />
      ))}
    </ul>
  );
}

function IncidentItem({
  monitorId,
  incident,
  readOnly,
}: {
  monitorId: string;
  incident: IncidentView;
  readOnly: boolean;
}) {
  const [writing, setWriting] = useState(false);
  return (
    <li className="space-y-1 rounded-md border p-2 text-sm" data-testid="incident">
      <p>
        {formatDate(incident.startedAt, 'MMM d, yyyy h:mm a')}:{' '}
        {incident.endedAt ? `down ${minutes(incident.startedAt, incident.endedAt)} min` : 'down now'}, {incident.cause}
      </p>
      {incident.note && !writing ? <p className="whitespace-pre-wrap text-muted-foreground">{incident.note}</p> : null}
      {incident.endedAt && !writing && !readOnly ? (
        <Button variant="link" size="sm" className="h-auto p-0" onClick={() => setWriting(true)}>
          {incident.note ? 'Edit the note' : 'Write a note'}
        </Button>
      ) : null}
      {writing ? <NoteForm monitorId={monitorId} incident={incident} onDone={() => setWriting(false)} /> : null}
    </li>
  );
}

function NoteForm({ monitorId, incident, onDone }: { monitorId: string; incident: IncidentView; onDone: () => void }) {
  const save = useNoteIncident(monitorId);
  const form = useSchemaForm('incidentNoteSchema', { defaultValues: { note: incident.note ?? '' } });
  const id = `note-${incident.id}`;
  const error = form.formState.errors.note?.message;
  const submit = ({ note }: FormOutput<'incidentNoteSchema'>) =>
    save.mutate({ incidentId: incident.id, note }, { onSuccess: onDone });
  return (
    <form className="space-y-2" noValidate onSubmit={form.handleSubmit(submit)}>
      <Label htmlFor={id}>What happened</Label>
      <Textarea id={id} aria-invalid={Boolean(error)} aria-describedby={`${id}-error`} {...form.register('note')} />
      <FieldError id={`${id}-error`} message={error} />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save note'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

import type { AlertChannelKind, AlertChannelView, AlertDeliveryView } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { showServerFieldErrors } from '../../lib/server-errors';
import { formatTimeAgo } from '../../lib/time-ago';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { CopyField } from '../../ui/copy-field';
import { ConfirmDialog } from '../../ui/dialog';
import { FieldError, Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { AlertReach } from './alert-reach';
import {
  alertChannelsQuery,
  alertDeliveriesQuery,
  alertEmailQuery,
  OWN_CHANNELS,
  teamChannels,
  useAddAlertChannel,
  useRemoveAlertChannel,
  useTestAlertChannel,
} from './use-alert-channels';

const kinds: Record<AlertChannelKind, { label: string; placeholder: string }> = {
  slack: { label: 'Slack', placeholder: 'https://hooks.slack.com/services/…' },
  discord: { label: 'Discord', placeholder: 'https://discord.com/api/webhooks/…' },
  ntfy: { label: 'ntfy', placeholder: 'https://ntfy.sh/your-topic' },
  webhook: { label: 'Webhook (signed JSON)', placeholder: 'https://example.com/shiplog-alerts' },
};

const deliveryStates: Record<AlertDeliveryView['state'], string> = {
  pending: 'Retrying',
  sent: 'Sent',
  failed: 'Failed',
};

/**
 * Settings › Notifications: where a monitor's alerts go besides email (Slack, Discord, ntfy, or a webhook
 * signed with HMAC-SHA256), a test button for each, and the log of every alert sent and its tries. The
 * same for a team workspace's channels on its page (`workspaceId`), where its projects' alerts go.
 */
export function AlertChannelsCard({ workspaceId }: { workspaceId?: string } = {}) {
  const base = workspaceId ? teamChannels(workspaceId) : OWN_CHANNELS;
  const { data: channels, isPending, error } = useQuery(alertChannelsQuery(base));
  const { data: deliveries } = useQuery(alertDeliveriesQuery(base));
  const emailSends = useQuery(alertEmailQuery).data?.sends;
  const add = useAddAlertChannel(base);
  const remove = useRemoveAlertChannel(base);
  const test = useTestAlertChannel(base);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [removing, setRemoving] = useState<AlertChannelView | null>(null);
  const form = useSchemaForm('createAlertChannelSchema', { defaultValues: { kind: 'slack', name: '', url: '' } });
  const kind = form.watch('kind') as AlertChannelKind;
  const submit = (values: FormOutput<'createAlertChannelSchema'>) =>
    add.mutate(values, {
      onSuccess: (made) => {
        setSecret(made.signingSecret ? { name: made.name, value: made.signingSecret } : null);
        form.reset({ kind: values.kind, name: '', url: '' });
      },
      onError: (failure) => showServerFieldErrors(failure, form.setError, ['kind', 'name', 'url']),
    });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Alerts</CardTitle>
        {workspaceId ? (
          <CardDescription>
            When a monitor of one of this workspace’s projects goes down or comes back, or a certificate nears its end,
            the alert goes to each channel here (to its maker’s own channels while there are none), and by email to
            every member who keeps its alert emails on. Only owners and admins change them.
          </CardDescription>
        ) : (
          <CardDescription>
            When a monitor goes down or comes back, or a certificate nears its end, the alert is emailed to your
            verified address and sent to each channel here (a team project’s goes to its workspace’s channels, when it
            has some). A failed delivery is tried again for about 15 minutes.
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="space-y-5">
        {workspaceId ? null : <AlertReach where="alerts" />}
        {secret ? (
          <div className="space-y-2 rounded-lg border border-primary/50 bg-accent/40 p-3" data-testid="signing-secret">
            <p className="text-sm font-medium">Signing secret of “{secret.name}”</p>
            <CopyField
              value={secret.value}
              label="Signing secret"
              copyLabel="Copy signing secret"
              copied="Check each delivery's Shiplog-Signature with it."
              mono
            />
            <p className="text-xs text-muted-foreground">
              Copy it now: it will not be shown again. Each delivery carries Shiplog-Signature: t=…,v1=… (HMAC-SHA256 of
              the timestamp, a dot and the body).
            </p>
            <Button variant="ghost" size="sm" onClick={() => setSecret(null)}>
              Done
            </Button>
          </div>
        ) : null}

        <form className="grid gap-3 sm:grid-cols-2" noValidate onSubmit={form.handleSubmit(submit)}>
          <div className="space-y-2">
            <Label htmlFor="alert-channel-kind">Send to</Label>
            <Select id="alert-channel-kind" className="block w-full" {...form.register('kind')}>
              {Object.entries(kinds).map(([value, { label }]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
            <FieldError id="alert-channel-kind-error" message={form.formState.errors.kind?.message} />
          </div>
          <TextField
            id="alert-channel-name"
            label="Name"
            placeholder="Team channel"
            error={form.formState.errors.name?.message}
            {...form.register('name')}
          />
          <div>
            <TextField
              id="alert-channel-url"
              label="URL"
              placeholder={kinds[kind]?.placeholder}
              error={form.formState.errors.url?.message}
              {...form.register('url')}
            />
          </div>
          <div>
            <Button type="submit" disabled={add.isPending}>
              <BellRing /> {add.isPending ? 'Adding...' : 'Add channel'}
            </Button>
          </div>
        </form>

        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p className="text-sm text-destructive">Could not load your channels: {error.message}</p>
        ) : channels.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {workspaceId
              ? 'No channels yet: its alerts go to the channels of each monitor’s maker, and by email to the members.'
              : emailSends === false
                ? 'No channels yet: without email from this server, nobody is told of an alert until you add one.'
                : 'No channels yet: alerts are emailed to your proven address only.'}
          </p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Alert channels">
            {channels.map((channel) => (
              <li key={channel.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium">{channel.name}</p>
                  <p className="text-xs text-muted-foreground">
                    {kinds[channel.kind].label} · {channel.origin}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Send a test alert to ${channel.name}`}
                    disabled={test.isPending}
                    onClick={() => test.mutate(channel)}
                  >
                    Test
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${channel.name}`}
                    onClick={() => setRemoving(channel)}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}

        <section aria-labelledby="alert-deliveries" className="space-y-2">
          <h3 id="alert-deliveries" className="text-sm font-semibold">
            Delivery log
          </h3>
          {!deliveries || deliveries.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing sent yet.</p>
          ) : (
            <ul className="space-y-1 text-sm" aria-label="Delivery log">
              {deliveries.map((delivery) => (
                <li key={delivery.id} className="flex flex-wrap justify-between gap-2" data-testid="alert-delivery">
                  <span className="min-w-0 truncate">
                    {delivery.summary} → {delivery.channelName}
                  </span>
                  <span className={delivery.state === 'sent' ? 'text-muted-foreground' : 'text-destructive'}>
                    {deliveryStates[delivery.state]}
                    {delivery.state !== 'sent' && delivery.lastError ? ` (${delivery.lastError})` : ''} ·{' '}
                    {formatTimeAgo(delivery.sentAt ?? delivery.createdAt)}
                    {delivery.attempts > 1 ? ` · ${delivery.attempts} tries` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <ConfirmDialog
          open={removing !== null}
          onOpenChange={(open) => {
            if (!open) setRemoving(null);
          }}
          title="Remove this channel?"
          description={`Alerts will no longer go to “${removing?.name ?? ''}”.`}
          confirmLabel={remove.isPending ? 'Removing...' : 'Remove channel'}
          pending={remove.isPending}
          onConfirm={() => removing && remove.mutate(removing, { onSuccess: () => setRemoving(null) })}
        />
      </CardContent>
    </Card>
  );
}

import { useQuery } from '@tanstack/react-query';
import { BellRing } from 'lucide-react';
import { formatDate } from '../../lib/format';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { devicePushQuery, pushQuery, useTestPush, useTurnOffPush, useTurnOnPush } from './use-push';

/**
 * Settings › Notifications: push reminders on this device (beside the email), with a test, and the
 * other devices that have them. Each reminder send reaches every device listed, with the same
 * one-tap link that completes it.
 */
export function PushCard() {
  const server = useQuery(pushQuery);
  const device = useQuery(devicePushQuery);
  const turnOn = useTurnOnPush();
  const turnOff = useTurnOffPush();
  const test = useTestPush();
  const pending = turnOn.isPending || turnOff.isPending;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Push reminders</CardTitle>
        <CardDescription>Reminders on this phone or computer as they fall due, beside the email.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {server.isPending || device.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : server.error ? (
          <p className="text-sm text-destructive">Unable to load push settings</p>
        ) : !server.data.publicKey ? (
          <p className="text-sm text-muted-foreground">Push reminders are not set up on this server.</p>
        ) : device.data?.state === 'unsupported' ? (
          <p className="text-sm text-muted-foreground">
            This browser cannot receive push notifications. On an iPhone or iPad, add Shiplog to the Home Screen first.
          </p>
        ) : device.data?.state === 'denied' ? (
          <p className="text-sm text-muted-foreground">
            Notifications are blocked for Shiplog in this browser’s settings. Allow them there, then come back.
          </p>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm" data-testid="push-device-state">
              {device.data?.state === 'on' ? 'On for this device' : 'Off for this device'}
            </p>
            <div className="ml-auto flex gap-2">
              {device.data?.state === 'on' ? (
                <>
                  <Button variant="outline" size="sm" disabled={test.isPending} onClick={() => test.mutate()}>
                    Send a test
                  </Button>
                  <Button variant="outline" size="sm" disabled={pending} onClick={() => turnOff.mutate()}>
                    Turn off
                  </Button>
                </>
              ) : (
                <Button size="sm" disabled={pending} onClick={() => turnOn.mutate(server.data.publicKey!)}>
                  <BellRing /> Turn on
                </Button>
              )}
            </div>
          </div>
        )}
        {server.data && server.data.devices.length > 0 ? (
          <div className="space-y-1">
            <p className="text-xs font-medium text-muted-foreground">Devices with push reminders</p>
            <ul className="space-y-1 text-sm">
              {server.data.devices.map((d) => (
                <li key={`${d.label}-${d.createdAt}`} className="flex justify-between gap-3">
                  <span>{d.label}</span>
                  <span className="text-muted-foreground">since {formatDate(d.createdAt)}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

// Settings › Notifications shows push reminders and where monitor alerts go too: one module, one chunk.
export { AlertChannelsCard } from '../monitors/alert-channels-card';
export { PushCard } from './push-card';

import type { NotificationSettings } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Label } from '../../ui/input';
import { Skeleton } from '../../ui/skeleton';
import { Switch } from '../../ui/switch';
import { notificationSettingsQuery, useUpdateNotificationSettings } from './use-account';

/** The switches (the dashboard's getting-started steps hide themselves, from the dashboard). */
const notificationLabels: Record<Exclude<keyof NotificationSettings, 'gettingStartedHidden'>, [string, string]> = {
  emailNotifications: ['Email notifications', 'Reminder emails and account notices'],
  projectUpdates: ['Project updates', 'News about your projects'],
  securityAlerts: ['Security alerts', 'Sign-ins and password changes'],
  marketingEmails: ['Marketing emails', 'Product news and offers'],
};

export function NotificationsCard() {
  const { data: settings, isPending } = useQuery(notificationSettingsQuery);
  const save = useUpdateNotificationSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {isPending || !settings ? (
          <Skeleton className="h-32 w-full" />
        ) : (
          (Object.keys(notificationLabels) as (keyof typeof notificationLabels)[]).map((key) => (
            <div key={key} className="flex items-center justify-between gap-4">
              <div>
                <Label htmlFor={`setting-${key}`}>{notificationLabels[key][0]}</Label>
                <p className="text-xs text-muted-foreground">{notificationLabels[key][1]}</p>
              </div>
              <Switch
                id={`setting-${key}`}
                checked={settings[key]}
                disabled={save.isPending}
                onCheckedChange={(value) => save.mutate({ ...settings, [key]: value })}
              />
            </div>
          ))
        )}
      </CardContent>
    </Card>
  );
}

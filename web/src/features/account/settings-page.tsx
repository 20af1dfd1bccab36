import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { formatDate } from '../../lib/format';
import { lazyPart, preloading } from '../../lib/on-demand';
import { adminCommentsQuery } from '../../lib/queries';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { AccountInfoCard } from './account-info-card';
import { DeleteAccountCard } from './delete-account-card';
import { PasswordCard } from './password-card';

/** The Notifications tab loads when first opened, or when its tab is pointed at or focused. */
const NotificationsCard = lazyPart(() => import('./notifications-card'), 'NotificationsCard');
const preloadNotifications = preloading(NotificationsCard);
/** The Privacy tab too. */
const PrivacyCard = lazyPart(() => import('./privacy-card'), 'PrivacyCard');
const preloadPrivacy = preloading(PrivacyCard);
/** The API Tokens tab too. */
const ApiTokensCard = lazyPart(() => import('./api-tokens-card'), 'ApiTokensCard');
const preloadApiTokens = preloading(ApiTokensCard);
/** The Sessions tab too. */
const SessionsCard = lazyPart(() => import('./sessions-card'), 'SessionsCard');
const preloadSessions = preloading(SessionsCard);
/** Where monitor alerts go, on the same tab and from the same module. */
const AlertChannelsCard = lazyPart(() => import('./notifications-card'), 'AlertChannelsCard');
const PushCard = lazyPart(() => import('./notifications-card'), 'PushCard');
/** The Export tab too. */
const ExportTab = lazyPart(() => import('./export-card'), 'ExportTab');
const preloadExport = preloading(ExportTab);

export function SettingsPage() {
  const { data: comments } = useQuery(adminCommentsQuery);
  return (
    <Tabs defaultValue="account" className="mx-auto max-w-3xl">
      <TabsList className="h-auto flex-wrap">
        <TabsTrigger value="account">Account</TabsTrigger>
        <TabsTrigger value="notifications" onPointerEnter={preloadNotifications} onFocus={preloadNotifications}>
          Notifications
        </TabsTrigger>
        <TabsTrigger value="privacy" onPointerEnter={preloadPrivacy} onFocus={preloadPrivacy}>
          Privacy
        </TabsTrigger>
        <TabsTrigger value="sessions" onPointerEnter={preloadSessions} onFocus={preloadSessions}>
          Sessions
        </TabsTrigger>
        <TabsTrigger value="tokens" onPointerEnter={preloadApiTokens} onFocus={preloadApiTokens}>
          API Tokens
        </TabsTrigger>
        <TabsTrigger value="export" onPointerEnter={preloadExport} onFocus={preloadExport}>
          Export
        </TabsTrigger>
        <TabsTrigger value="messages">
          Admin Messages
          <span
            className="ml-2 rounded-full bg-primary px-1.5 text-[10px] font-bold text-primary-foreground"
            data-testid="messages-count"
          >
            {comments?.length ?? 0}
          </span>
        </TabsTrigger>
      </TabsList>
      <TabsContent value="account" className="space-y-6">
        <AccountInfoCard />
        <PasswordCard />
        <DeleteAccountCard />
      </TabsContent>
      <TabsContent value="notifications" className="space-y-6">
        <Suspense fallback={<Skeleton className="h-40 w-full" />}>
          <NotificationsCard />
          <PushCard />
          <AlertChannelsCard />
        </Suspense>
      </TabsContent>
      <TabsContent value="privacy">
        <Suspense fallback={<Skeleton className="h-40 w-full" />}>
          <PrivacyCard />
        </Suspense>
      </TabsContent>
      <TabsContent value="sessions">
        <Suspense fallback={<Skeleton className="h-40 w-full" />}>
          <SessionsCard />
        </Suspense>
      </TabsContent>
      <TabsContent value="tokens">
        <Suspense fallback={<Skeleton className="h-40 w-full" />}>
          <ApiTokensCard />
        </Suspense>
      </TabsContent>
      <TabsContent value="export">
        <Suspense fallback={<Skeleton className="h-40 w-full" />}>
          <ExportTab />
        </Suspense>
      </TabsContent>
      <TabsContent value="messages">
        <Card>
          <CardHeader>
            <CardTitle>Admin Messages</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            {!comments || comments.length === 0 ? (
              <p className="text-sm text-muted-foreground">No messages from the administrators.</p>
            ) : null}
            {comments?.map((comment) => (
              <article key={comment.id} className="rounded-lg border p-3">
                <p className="text-xs text-muted-foreground">
                  Admin {comment.adminUsername} · {formatDate(comment.createdAt, 'MMM d, yyyy h:mm a')}
                  {comment.priority !== 'normal' ? (
                    <span className="ml-2 font-semibold uppercase">{comment.priority}</span>
                  ) : null}
                </p>
                <p className="whitespace-pre-wrap text-sm">{comment.message}</p>
              </article>
            ))}
          </CardContent>
        </Card>
      </TabsContent>
    </Tabs>
  );
}

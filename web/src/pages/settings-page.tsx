import { type NotificationSettings, projectVisibilities } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { MailCheck, MailWarning } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { TextField } from '../components/text-field';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { ConfirmDialog } from '../components/ui/dialog';
import { Label } from '../components/ui/input';
import { Skeleton } from '../components/ui/skeleton';
import { Switch } from '../components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { toast } from '../components/ui/toast';
import {
  useChangePassword,
  useSendVerificationEmail,
  useUpdateAccountInfo,
  useUpdateNotificationSettings,
  useUpdateProfile,
} from '../hooks/use-account';
import { useDeleteAccount } from '../hooks/use-auth';
import { cn } from '../lib/class-names';
import { formatDate } from '../lib/format';
import { type FormOutput, useSchemaForm } from '../lib/forms';
import { adminCommentsQuery, notificationSettingsQuery, profileQuery, userQuery } from '../lib/queries';
import { showServerFieldErrors } from '../lib/server-errors';

/** The API Tokens tab loads when first opened, or when its tab is pointed at or focused. */
const loadApiTokens = () => import('../components/account/api-tokens-card');
const ApiTokensCard = lazy(async () => ({ default: (await loadApiTokens()).ApiTokensCard }));
const preloadApiTokens = () => void loadApiTokens();
/** The Sessions tab too. */
const loadSessions = () => import('../components/account/sessions-card');
const SessionsCard = lazy(async () => ({ default: (await loadSessions()).SessionsCard }));
const preloadSessions = () => void loadSessions();
/** The Export tab too. */
const loadExport = () => import('../components/account/export-card');
const ExportTab = lazy(async () => ({ default: (await loadExport()).ExportTab }));
const preloadExport = () => void loadExport();

export function SettingsPage() {
  const { data: comments } = useQuery(adminCommentsQuery);
  return (
    <Tabs defaultValue="account" className="mx-auto max-w-3xl">
      <TabsList className="flex-wrap">
        <TabsTrigger value="account">Account</TabsTrigger>
        <TabsTrigger value="notifications">Notifications</TabsTrigger>
        <TabsTrigger value="privacy">Privacy</TabsTrigger>
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
      <TabsContent value="notifications">
        <NotificationsCard />
      </TabsContent>
      <TabsContent value="privacy">
        <PrivacyCard />
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

function AccountInfoCard() {
  const { data: profile, isPending } = useQuery(profileQuery);
  const save = useUpdateAccountInfo();
  const form = useSchemaForm('accountInfoSchema', {
    values: { email: profile?.email ?? '', phoneNumber: profile?.phoneNumber ?? '' },
  });
  const submit = (values: FormOutput<'accountInfoSchema'>) =>
    save.mutate(values, {
      onSuccess: (saved) =>
        toast({
          title: 'Account information updated',
          description:
            saved.email && !saved.emailVerified && saved.email !== profile?.email
              ? `We sent a link to ${saved.email}: open it to get your reminders by email.`
              : undefined,
        }),
      onError: (error) =>
        toast({ title: 'Failed to update account information', description: error.message, variant: 'destructive' }),
    });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account information</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
            <TextField
              id="account-email"
              label="Email"
              type="email"
              error={form.formState.errors.email?.message}
              {...form.register('email')}
            />
            {profile?.email ? <EmailVerificationStatus verified={profile.emailVerified === true} /> : null}
            <TextField
              id="account-phone"
              label="Phone number"
              type="tel"
              error={form.formState.errors.phoneNumber?.message}
              {...form.register('phoneNumber')}
            />
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

/** Whether reminders can be emailed to the address, and a new link when it is not proven yet. */
function EmailVerificationStatus({ verified }: { verified: boolean }) {
  const send = useSendVerificationEmail();
  if (verified)
    return (
      <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="email-status">
        <MailCheck className="size-4 text-primary" aria-hidden /> Verified: reminders are emailed to this address.
      </p>
    );
  return (
    <div className="space-y-2 rounded-lg border border-dashed p-3" data-testid="email-status">
      <p className="flex items-center gap-1.5 text-sm">
        <MailWarning className="size-4 text-destructive" aria-hidden /> Not verified yet
      </p>
      <p className="text-xs text-muted-foreground">
        Reminders are emailed only to an address you have confirmed is yours. Open the link we sent to it.
      </p>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={send.isPending}
        onClick={() =>
          send.mutate(undefined, {
            onSuccess: () => toast({ title: 'Verification email sent', description: 'Open the link in it.' }),
            onError: (error) =>
              toast({ title: 'Failed to send verification email', description: error.message, variant: 'destructive' }),
          })
        }
      >
        {send.isPending ? 'Sending...' : 'Send a new link'}
      </Button>
    </div>
  );
}

function PasswordCard() {
  const [changed, setChanged] = useState(false);
  const form = useSchemaForm('changePasswordFormSchema', {
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const change = useChangePassword();
  const submit = (values: FormOutput<'changePasswordFormSchema'>) =>
    change.mutate(values, {
      onSuccess: () => {
        form.reset();
        setChanged(true);
      },
      onError: (error) => {
        showServerFieldErrors(error, form.setError, ['currentPassword', 'newPassword']);
        toast({ title: 'Failed to change password', description: error.message, variant: 'destructive' });
      },
    });
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        {changed ? (
          <p className="text-sm">
            Your password has been changed.{' '}
            <Button variant="link" className="h-auto p-0" onClick={() => setChanged(false)}>
              Change again?
            </Button>
          </p>
        ) : (
          <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
            <TextField
              id="password-current"
              label="Current password"
              type="password"
              autoComplete="current-password"
              error={errors.currentPassword?.message}
              {...form.register('currentPassword')}
            />
            <TextField
              id="password-new"
              label="New password"
              type="password"
              autoComplete="new-password"
              error={errors.newPassword?.message}
              {...form.register('newPassword')}
            />
            <TextField
              id="password-confirm"
              label="Confirm new password"
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...form.register('confirmPassword')}
            />
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Change password'}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

const notificationLabels: Record<keyof NotificationSettings, [string, string]> = {
  emailNotifications: ['Email notifications', 'Reminder emails and account notices'],
  projectUpdates: ['Project updates', 'News about your projects'],
  securityAlerts: ['Security alerts', 'Sign-ins and password changes'],
  marketingEmails: ['Marketing emails', 'Product news and offers'],
};

function NotificationsCard() {
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
          (Object.keys(notificationLabels) as (keyof NotificationSettings)[]).map((key) => (
            <div key={key} className="flex items-center justify-between gap-4">
              <div>
                <Label htmlFor={`setting-${key}`}>{notificationLabels[key][0]}</Label>
                <p className="text-xs text-muted-foreground">{notificationLabels[key][1]}</p>
              </div>
              <Switch
                id={`setting-${key}`}
                checked={settings[key]}
                disabled={save.isPending}
                onCheckedChange={(value) =>
                  save.mutate(
                    { ...settings, [key]: value },
                    {
                      onError: (error) =>
                        toast({
                          title: 'Failed to update settings',
                          description: error.message,
                          variant: 'destructive',
                        }),
                    },
                  )
                }
              />
            </div>
          ))
        )}
      </CardContent>
    </Card>
  );
}

function PrivacyCard() {
  const { data: profile } = useQuery(profileQuery);
  // Shown at once; put back if the save fails.
  const [choice, setChoice] = useState<(typeof projectVisibilities)[number] | null>(null);
  const selected = choice ?? profile?.projectVisibility;
  const update = useUpdateProfile();
  const saveVisibility = (projectVisibility: (typeof projectVisibilities)[number]) => {
    const { email: _email, isReplitLinked: _linked, username: _username, ...current } = profile!;
    update.mutate(
      { ...current, projectVisibility },
      {
        onSuccess: () => toast({ title: 'Privacy updated' }),
        onError: (error) => {
          setChoice(null);
          toast({ title: 'Failed to update settings', description: error.message, variant: 'destructive' });
        },
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Privacy</CardTitle>
        <CardDescription>Who can see your projects on your profile.</CardDescription>
      </CardHeader>
      <CardContent>
        <fieldset className="space-y-2" disabled={!profile}>
          <legend className="sr-only">Project visibility</legend>
          {projectVisibilities.map((value) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-center gap-3 rounded-lg border p-3',
                selected === value && 'border-primary bg-accent',
              )}
            >
              <input
                type="radio"
                name="visibility"
                value={value}
                checked={selected === value}
                onChange={() => {
                  setChoice(value);
                  saveVisibility(value);
                }}
              />
              <span>
                <span className="block text-sm font-medium">{value === 'public' ? 'Public' : 'Private'}</span>
                <span className="block text-xs text-muted-foreground">
                  {value === 'public'
                    ? 'Anyone with your profile link sees your public projects.'
                    : 'Only you see your projects.'}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      </CardContent>
    </Card>
  );
}

function DeleteAccountCard() {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAccount();
  const { data: user } = useQuery(userQuery);
  return (
    <Card className={cn(!user?.isAdmin && 'border-destructive/50')}>
      <CardHeader>
        <CardTitle>Delete account</CardTitle>
        <CardDescription>
          {user?.isAdmin
            ? 'The administrator account cannot be deleted.'
            : 'Permanently deletes your account and everything in it: projects, reminders, activity and messages.'}
        </CardDescription>
      </CardHeader>
      <CardContent hidden={user?.isAdmin}>
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          Delete Account
        </Button>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Are you sure?"
          description="This will permanently delete your account and all associated data, including your projects, reminders and activity. This action cannot be undone."
          confirmLabel={remove.isPending ? 'Deleting...' : 'Delete Account'}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(undefined, { onError: () => setConfirming(false) })}
        />
      </CardContent>
    </Card>
  );
}

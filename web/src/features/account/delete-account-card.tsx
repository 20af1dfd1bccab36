import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { cn } from '../../lib/class-names';
import { userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { useDeleteAccount } from './use-auth';

export function DeleteAccountCard() {
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

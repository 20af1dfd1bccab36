import { isId } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { AlertCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { apiRequest, isNotFound } from '../../lib/api';
import { userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { FullPageSpinner } from '../../ui/full-page-spinner';
import { toast } from '../../ui/toast';
import { useReminderAction } from './use-reminders';

/** The one-tap link of a reminder email: complete it, then go to its project. */
export function ReminderCompletePage() {
  const { id } = useParams({ from: '/reminders/$id/complete' });
  const navigate = useNavigate();
  const { data: user, isPending } = useQuery(userQuery);
  const complete = useReminderAction('complete');
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (isPending || started.current) return;
    started.current = true;
    if (!user) {
      toast({ title: 'Please log in' });
      void navigate({ to: '/auth', search: { redirect: `/reminders/${id}/complete` } });
      return;
    }
    if (!id) return setFailure('Invalid reminder ID');
    if (!isId(id)) return setFailure('Invalid reminder ID format');
    apiRequest<{ projectId: string }>('GET', `/api/reminders/${id}`)
      .then(async (reminder) => {
        await complete.mutateAsync(id);
        await navigate({ to: '/projects/$id', params: { id: reminder.projectId } });
      })
      .catch((error: unknown) => {
        setFailure(
          isNotFound(error)
            ? 'Reminder not found'
            : error instanceof Error
              ? error.message
              : 'Failed to complete reminder',
        );
      });
  }, [isPending, user, id, navigate, complete]);

  if (!failure) return <FullPageSpinner />;
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 pt-6">
          <div className="flex items-center gap-2 text-destructive">
            <AlertCircle className="size-5" aria-hidden />
            <h1 className="font-semibold">Failed to complete reminder</h1>
          </div>
          <p className="text-sm text-muted-foreground">{failure}</p>
          <Button asChild>
            <Link to="/">Return to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}

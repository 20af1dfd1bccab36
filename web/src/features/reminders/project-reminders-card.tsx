import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { projectRemindersQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { ReminderFormDialog } from './reminder-form-dialog';
import { ReminderItem } from './reminder-item';

/** A project's reminders: `readOnly` for a viewer of a team project, who may read them and change none. */
export function ProjectRemindersCard({ projectId, readOnly = false }: { projectId: string; readOnly?: boolean }) {
  const { data, error, isPending } = useQuery(projectRemindersQuery(projectId));
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Project Reminders</CardTitle>
        {readOnly ? null : (
          <ReminderFormDialog
            projectId={projectId}
            trigger={
              <Button size="sm">
                <Plus /> Add Reminder
              </Button>
            }
          />
        )}
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p className="text-sm text-destructive">Unable to load reminders</p>
        ) : data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No reminders for this project yet.</p>
        ) : (
          <ul className="space-y-2" data-testid="project-reminders">
            {data.map((reminder) => (
              <ReminderItem key={reminder.id} reminder={reminder} readOnly={readOnly} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

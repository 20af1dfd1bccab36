import type { WorkspaceView } from '@shiplog/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Label } from '../../ui/input';
import { Switch } from '../../ui/switch';

/**
 * Every member's own choice: whether the workspace's alerts (its projects' incidents, missed runs and
 * expiries) are emailed to them, to their proven address. On unless turned off.
 */
export function AlertMailCard({ workspace }: { workspace: WorkspaceView }) {
  const queryClient = useQueryClient();
  const queryKey = [...keys.workspaces, workspace.id, 'alert-mail'];
  const path = `/api/workspaces/${workspace.id}/alert-mail`;
  const { data } = useQuery({ queryKey, queryFn: () => apiRequest<{ mail: boolean }>('GET', path) });
  const change = useMutation({
    mutationFn: (mail: boolean) => apiRequest<{ mail: boolean }>('PUT', path, { mail }),
    onSuccess: (answer) => queryClient.setQueryData(queryKey, answer),
    meta: told({
      success: (answer: { mail: boolean }) => ({
        title: answer.mail ? 'Alert emails on' : 'Alert emails off',
        description: answer.mail
          ? `${workspace.name}’s alerts are emailed to you.`
          : `${workspace.name}’s alerts are not emailed to you.`,
      }),
      failure: 'Failed to change your alert emails',
    }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your alert emails</CardTitle>
        <CardDescription>
          When a monitor of this workspace’s projects goes down or comes back, or a certificate nears its end.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex items-center gap-3">
        <Switch
          id="workspace-alert-mail"
          checked={data?.mail ?? true}
          disabled={data === undefined || change.isPending}
          onCheckedChange={(mail) => change.mutate(mail)}
        />
        <Label htmlFor="workspace-alert-mail">Email me this workspace’s alerts</Label>
      </CardContent>
    </Card>
  );
}

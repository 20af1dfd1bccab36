import type { Project } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { workspacesQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { useMoveProject } from './use-projects';

const PERSONAL = 'personal';

/**
 * A project's space, and moving it: an owner or admin of its space picks another they are an owner or
 * admin of (or their personal space), and confirms what changes: who sees it and who may change it.
 */
export function MoveProjectCard({ project }: { project: Project }) {
  const { data: workspaces } = useQuery(workspacesQuery);
  const move = useMoveProject(project.id);
  const [to, setTo] = useState('');
  const [confirming, setConfirming] = useState(false);
  if (!project.workspaceId && !workspaces?.length) return null;
  const here = project.workspaceId
    ? (workspaces?.find((workspace) => workspace.id === project.workspaceId)?.name ?? 'a team workspace')
    : 'your personal space';
  const mayMove = project.role === 'owner' || project.role === 'admin';
  const destinations = [
    ...(project.workspaceId ? [{ id: PERSONAL, name: 'Your personal space' }] : []),
    ...(workspaces ?? []).filter(
      (workspace) => workspace.id !== project.workspaceId && (workspace.role === 'owner' || workspace.role === 'admin'),
    ),
  ];
  const chosen = destinations.find((destination) => destination.id === to);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Space</CardTitle>
        <CardDescription data-testid="project-space">
          {project.name} is in {here}.{' '}
          {mayMove
            ? destinations.length > 0
              ? 'Move it with its timeline, reminders, monitors and links to a space where you are an owner or admin.'
              : 'You are an owner or admin of no other workspace to move it to.'
            : 'Only an owner or admin of its workspace can move it.'}
        </CardDescription>
      </CardHeader>
      {mayMove && destinations.length > 0 ? (
        <CardContent>
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if (chosen) setConfirming(true);
            }}
          >
            <div className="space-y-2">
              <Label htmlFor="move-to">Move to</Label>
              <Select id="move-to" className="block" value={to} onChange={(event) => setTo(event.target.value)}>
                <option value="">Choose a space…</option>
                {destinations.map((destination) => (
                  <option key={destination.id} value={destination.id}>
                    {destination.name}
                  </option>
                ))}
              </Select>
            </div>
            <Button type="submit" variant="outline" disabled={!chosen || move.isPending}>
              Move
            </Button>
          </form>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={`Move ${project.name}?`}
            description={
              chosen?.id === PERSONAL
                ? `It becomes yours alone: the members of ${here} will no longer see or change it.`
                : `The members of ${chosen?.name ?? 'that workspace'} will see it, and change it as their roles allow${
                    project.workspaceId ? `; the members of ${here} will no longer see it` : ''
                  }.`
            }
            confirmLabel="Move"
            pending={move.isPending}
            onConfirm={() => {
              if (!chosen) return;
              move.mutate(
                {
                  workspaceId: chosen.id === PERSONAL ? null : chosen.id,
                  to: chosen.id === PERSONAL ? 'your personal space' : chosen.name,
                },
                { onSettled: () => setConfirming(false), onSuccess: () => setTo('') },
              );
            }}
          />
        </CardContent>
      ) : null}
    </Card>
  );
}

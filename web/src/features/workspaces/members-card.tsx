import {
  type MemberView,
  roleAtLeast,
  roleLabels,
  type WorkspaceRole,
  type WorkspaceView,
  workspaceRoles,
} from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { LogOut, UserMinus } from 'lucide-react';
import { useState } from 'react';
import { formatDate } from '../../lib/format';
import { userQuery } from '../../lib/queries';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { Select } from '../../ui/select';
import { Skeleton } from '../../ui/skeleton';
import { RoleBadge } from './roles';
import { useChangeRole, useRemoveMember, workspaceMembersQuery } from './use-workspaces';

/** What the caller may do to one member, as the workspace decides it (services/identity's decide.ts). */
function allowed(actor: WorkspaceRole, member: MemberView, self: boolean, owners: number) {
  const soleOwner = member.role === 'owner' && owners === 1;
  // Admins manage members and admins; owners are made and unmade by owners; a workspace keeps an owner.
  const manages = actor === 'owner' || (actor === 'admin' && member.role !== 'owner');
  return {
    roles: manages && !soleOwner ? workspaceRoles.filter((role) => actor === 'owner' || role !== 'owner') : [],
    remove: !self && manages,
    leave: self && !soleOwner,
  };
}

/** The members and their roles: a role select for those the caller manages, removal, and Leave for oneself. */
export function MembersCard({ workspace }: { workspace: WorkspaceView }) {
  const { data: members, isPending, error } = useQuery(workspaceMembersQuery(workspace.id));
  const { data: user } = useQuery(userQuery);
  const [removing, setRemoving] = useState<MemberView | null>(null);
  const [promoting, setPromoting] = useState<MemberView | null>(null);
  const change = useChangeRole(workspace.id);
  const remove = useRemoveMember(workspace);
  const owners = members?.filter((member) => member.role === 'owner').length ?? 0;
  const self = members?.find((member) => member.userId === user?.id);
  const soleOwner = self?.role === 'owner' && owners === 1;
  const leaving = removing !== null && removing.userId === user?.id;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          {workspace.role === 'owner'
            ? 'To hand the workspace over, make another member owner, then change your own role.'
            : roleAtLeast(workspace.role, 'admin')
              ? 'You can change the roles of members and admins, and remove them. Owners are managed by owners.'
              : 'Owners and admins manage the members.'}
          {soleOwner ? ' As its only owner you cannot leave it: make another member owner first, or delete it.' : ''}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p className="text-sm text-destructive">Could not load the members: {error.message}</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Members">
            {members.map((member) => (
              <MemberRow
                key={member.userId}
                member={member}
                self={member.userId === user?.id}
                can={allowed(workspace.role, member, member.userId === user?.id, owners)}
                changing={change.isPending && change.variables?.member.userId === member.userId}
                onRole={(role) => (role === 'owner' ? setPromoting(member) : change.mutate({ member, role }))}
                onRemove={() => setRemoving(member)}
              />
            ))}
          </ul>
        )}
        <ConfirmDialog
          open={removing !== null}
          onOpenChange={(open) => {
            if (!open) setRemoving(null);
          }}
          title={leaving ? 'Leave this workspace?' : `Remove ${removing?.username ?? ''}?`}
          description={
            leaving
              ? `You will no longer see “${workspace.name}” or its projects. To come back, you need a new invite.`
              : `${removing?.username ?? ''} will no longer see “${workspace.name}” or its projects.`
          }
          confirmLabel={remove.isPending ? 'Please wait...' : leaving ? 'Leave workspace' : 'Remove member'}
          pending={remove.isPending}
          onConfirm={() =>
            removing && remove.mutate({ member: removing, self: leaving }, { onSettled: () => setRemoving(null) })
          }
        />
        <ConfirmDialog
          open={promoting !== null}
          onOpenChange={(open) => {
            if (!open) setPromoting(null);
          }}
          title={`Make ${promoting?.username ?? ''} an owner?`}
          description="Owners can do everything, you included: delete the workspace, and change or remove any member. To hand the workspace over, change your own role afterwards."
          confirmLabel={change.isPending ? 'Please wait...' : 'Make owner'}
          pending={change.isPending}
          onConfirm={() =>
            promoting && change.mutate({ member: promoting, role: 'owner' }, { onSettled: () => setPromoting(null) })
          }
        />
      </CardContent>
    </Card>
  );
}

function MemberRow({
  member,
  self,
  can,
  changing,
  onRole,
  onRemove,
}: {
  member: MemberView;
  self: boolean;
  can: ReturnType<typeof allowed>;
  changing: boolean;
  onRole: (role: WorkspaceRole) => void;
  onRemove: () => void;
}) {
  // The role chosen, saved with its button: a select's arrow keys would otherwise save every role passed.
  const [draft, setDraft] = useState<WorkspaceRole>(member.role);
  const [shown, setShown] = useState(member.role);
  if (shown !== member.role) {
    setShown(member.role);
    setDraft(member.role);
  }
  const selectId = `member-role-${member.userId}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-3" data-testid="member-row">
      <div className="flex min-w-0 items-center gap-3">
        <Avatar username={member.username} />
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">
            {member.username}
            {self ? <span className="font-normal text-muted-foreground"> (you)</span> : null}
          </p>
          <p className="text-xs text-muted-foreground">Joined {formatDate(member.joinedAt)}</p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {can.roles.length > 0 ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              Role of {member.username}
            </label>
            <Select
              id={selectId}
              className="h-9"
              value={draft}
              disabled={changing}
              onChange={(event) => setDraft(event.target.value as WorkspaceRole)}
            >
              {can.roles.map((role) => (
                <option key={role} value={role}>
                  {roleLabels[role]}
                </option>
              ))}
            </Select>
            {draft !== member.role ? (
              <Button
                size="sm"
                disabled={changing}
                aria-label={`Save role of ${member.username}`}
                onClick={() => onRole(draft)}
              >
                {changing ? 'Saving...' : 'Save role'}
              </Button>
            ) : null}
          </>
        ) : (
          <RoleBadge role={member.role} />
        )}
        {can.leave ? (
          <Button variant="outline" size="sm" onClick={onRemove}>
            <LogOut /> Leave
          </Button>
        ) : null}
        {can.remove ? (
          <Button variant="ghost" size="sm" aria-label={`Remove ${member.username}`} onClick={onRemove}>
            <UserMinus /> Remove
          </Button>
        ) : null}
      </div>
    </li>
  );
}

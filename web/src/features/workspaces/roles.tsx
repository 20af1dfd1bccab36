import { roleLabels, type WorkspaceRole } from '@shiplog/schemas';
import { cn } from '../../lib/class-names';

/** What each role may do, as the pages tell the user theirs and the invite form the one it gives. */
export const roleAbilities: Record<WorkspaceRole, string> = {
  owner: 'Owners can do everything: rename or delete the workspace, and manage its members, owners and invites.',
  admin: 'Admins manage members and invites, and can rename the workspace.',
  member: 'Members work on the workspace’s projects.',
  viewer: 'Viewers can read the workspace’s projects, and change nothing.',
};

/** A member's role as a small label beside their name. */
export function RoleBadge({ role, className }: { role: WorkspaceRole; className?: string }) {
  return (
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-medium',
        role === 'owner' || role === 'admin' ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
        className,
      )}
    >
      {roleLabels[role]}
    </span>
  );
}

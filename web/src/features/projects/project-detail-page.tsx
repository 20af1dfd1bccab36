import { type ChecklistKey, checklistKeys, socialLinkKeys } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ExternalLink, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { formatCost, formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { projectActivitiesQuery, projectQuery, workspacesQuery } from '../../lib/queries';
import { BackLink } from '../../ui/back-link';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Checkbox } from '../../ui/checkbox';
import { Skeleton } from '../../ui/skeleton';
import { ActivityCard } from '../activity/activity-card';
import { RepositoryCard } from '../integrations/repository-card';
import { MonitorsCard } from '../monitors/monitors-card';
import { PingCard } from '../monitors/ping-card';
import { ProjectRemindersCard } from '../reminders/project-reminders-card';
import { DeleteProjectDialog } from './delete-project';
import { DeployHookCard } from './deploy-hook-card';
import { PresentMembers, usePresence } from './presence';
import { ProjectLoadError, ProjectLoading } from './project-load-states';
import { RecordButtonDialog } from './record-dialogs';
import { canChange, VIEWER_NOTE, ViewerBadge, WorkspaceBadge } from './spaces';
import { StatusBadge } from './status-badge';
import { useUpdateProject } from './use-projects';

const checklistLabels: Record<ChecklistKey, string> = {
  databaseAdded: 'Database added',
  authenticationAdded: 'Authentication added',
  deployed: 'Deployed',
  backedUp: 'Backed up',
  hasTests: 'Has tests',
};
const linkLabels = {
  github: 'GitHub',
  website: 'Website',
  docs: 'Docs',
  twitter: 'Twitter',
  instagram: 'Instagram',
} as const;

export function ProjectDetailPage() {
  const { id } = useParams({ from: '/app/projects/$id' });
  const { data: project, error, isPending } = useQuery(projectQuery(id));
  const update = useUpdateProject(id);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { data: workspaces } = useQuery({ ...workspacesQuery, enabled: Boolean(project?.workspaceId) });
  // Who else of the team has it open: none on a personal project.
  const present = usePresence(id, Boolean(project?.workspaceId));
  usePageTitle(project?.name ?? null);

  if (isPending) return <ProjectLoading />;
  if (error) return <ProjectLoadError error={error} />;

  // A viewer of a team project reads all of it, and is offered nothing that changes it.
  const changeable = canChange(project);
  const workspaceName = project.workspaceId
    ? workspaces?.find((workspace) => workspace.id === project.workspaceId)?.name
    : undefined;
  const done = checklistKeys.filter((k) => project.checklist[k]).length;
  const links = socialLinkKeys.filter((k) => project.metadata.socialLinks[k]);
  const toggle = (key: ChecklistKey, value: boolean) => update.mutate({ [key]: value });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-2xl font-semibold tracking-tight">{project.name}</h2>
        <StatusBadge status={project.status} />
        {workspaceName ? <WorkspaceBadge name={workspaceName} /> : null}
        <PresentMembers present={present} />
        {changeable ? (
          <div className="ml-auto flex gap-2">
            <Button variant="outline" asChild>
              <Link to="/projects/edit/$id" params={{ id }}>
                <Pencil /> Edit
              </Link>
            </Button>
            <Button variant="destructive" onClick={() => setConfirmDelete(true)}>
              <Trash2 /> Delete
            </Button>
          </div>
        ) : (
          <ViewerBadge />
        )}
      </div>
      {changeable ? (
        <DeleteProjectDialog project={project} open={confirmDelete} onOpenChange={setConfirmDelete} goTo="/projects" />
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="viewer-note">
          {VIEWER_NOTE}
        </p>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Description</CardTitle>
        </CardHeader>
        <CardContent>
          <p className="whitespace-pre-wrap text-sm">{project.description || 'No description provided'}</p>
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>Project Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <dt className="text-muted-foreground">Status</dt>
              <dd>
                <StatusBadge status={project.status} />
              </dd>
              <dt className="text-muted-foreground">Created</dt>
              <dd>{formatDate(project.createdAt)}</dd>
              <dt className="text-muted-foreground">Last updated</dt>
              <dd>{formatDate(project.updatedAt)}</dd>
              <dt className="text-muted-foreground">Cost Est.</dt>
              <dd>{formatCost(project.costEstimate)}</dd>
              <dt className="text-muted-foreground">Visibility</dt>
              <dd>{project.isPublic ? 'Public' : 'Private'}</dd>
              {project.replitId ? (
                <>
                  <dt className="text-muted-foreground">Replit ID</dt>
                  <dd className="break-all">{project.replitId}</dd>
                </>
              ) : null}
            </dl>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Social Links</CardTitle>
          </CardHeader>
          <CardContent>
            {links.length === 0 ? (
              <p className="text-sm text-muted-foreground">No social links added</p>
            ) : (
              <ul className="space-y-2 text-sm">
                {links.map((key) => (
                  <li key={key}>
                    <a
                      href={project.metadata.socialLinks[key]}
                      target="_blank"
                      rel="noreferrer noopener"
                      className="inline-flex items-center gap-1 text-primary hover:underline"
                    >
                      {linkLabels[key]} <ExternalLink className="size-3" aria-hidden />
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Progress Checklist</CardTitle>
            <CardDescription>
              {done} of {checklistKeys.length} complete
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <div
              className="h-2 overflow-hidden rounded-full bg-muted"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={5}
              aria-valuenow={done}
              aria-label="Progress"
            >
              <div
                className="h-full bg-primary transition-all"
                style={{ width: `${(done / checklistKeys.length) * 100}%` }}
              />
            </div>
            {checklistKeys.map((key) => (
              <div key={key} className="flex items-center gap-2">
                <Checkbox
                  id={`detail-${key}`}
                  checked={project.checklist[key]}
                  busy={update.isPending}
                  disabled={!changeable}
                  onCheckedChange={(v) => toggle(key, v === true)}
                />
                <label htmlFor={`detail-${key}`} className="text-sm">
                  {checklistLabels[key]}
                </label>
              </div>
            ))}
          </CardContent>
        </Card>
      </div>

      <ProjectRemindersCard projectId={id} readOnly={!changeable} />

      <RepositoryCard projectId={id} readOnly={!changeable} />

      <MonitorsCard
        projectId={id}
        suggestedUrl={project.metadata.socialLinks.website || null}
        readOnly={!changeable}
        team={Boolean(project.workspaceId)}
      />

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Activity Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <ProjectTimeline projectId={id} />
          </CardContent>
        </Card>
        <div className="space-y-6">
          {changeable ? (
            <Card>
              <CardHeader>
                <CardTitle>Project Events</CardTitle>
                <CardDescription>Record what happened to this project.</CardDescription>
              </CardHeader>
              <CardContent className="flex flex-col gap-2">
                <RecordButtonDialog projectId={id} kind="backup" />
                <RecordButtonDialog projectId={id} kind="deployment" />
                <RecordButtonDialog projectId={id} kind="version" />
              </CardContent>
            </Card>
          ) : null}
          <DeployHookCard projectId={id} readOnly={!changeable} />
          <PingCard projectId={id} readOnly={!changeable} />
        </div>
      </div>

      <BackLink to="/projects">Back to Projects</BackLink>
    </div>
  );
}

function ProjectTimeline({ projectId }: { projectId: string }) {
  const { data, error, isPending } = useQuery(projectActivitiesQuery(projectId));
  if (isPending)
    return (
      <div className="space-y-3" aria-busy="true">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  if (error) return <p className="text-sm text-destructive">Failed to load activity timeline</p>;
  if (data.length === 0) return <p className="text-sm text-muted-foreground">No recent activity to display.</p>;
  return (
    <div className="divide-y" data-testid="project-timeline">
      {data.map((activity) => (
        <ActivityCard key={activity.id} activity={activity} />
      ))}
    </div>
  );
}

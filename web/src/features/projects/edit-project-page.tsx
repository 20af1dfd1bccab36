import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { usePageTitle } from '../../lib/page-title';
import { projectQuery } from '../../lib/queries';
import { BackLink } from '../../ui/back-link';
import { Card, CardContent } from '../../ui/card';
import { MoveProjectCard } from './move-project';
import { ProjectForm, toProjectInput } from './project-form';
import { ProjectLoadError, ProjectLoading } from './project-load-states';
import { canChange, VIEWER_NOTE } from './spaces';
import { useUpdateProject } from './use-projects';

export function EditProjectPage() {
  const { id } = useParams({ from: '/app/projects/edit/$id' });
  const { data: project, error, isPending } = useQuery(projectQuery(id));
  const update = useUpdateProject(id, 'form');
  const navigate = useNavigate();
  usePageTitle(project ? `Edit: ${project.name}` : null);

  if (isPending) return <ProjectLoading />;
  if (error) return <ProjectLoadError error={error} />;
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <BackLink to="/projects/$id" params={{ id }}>
        Back to Project
      </BackLink>
      {canChange(project) ? (
        <>
          <ProjectForm
            project={project}
            submitLabel="Update Project"
            pending={update.isPending}
            onSubmit={(values) => {
              // Its space changes by a move (the card below): the edit sends the rest.
              const { workspaceId: _, ...changes } = toProjectInput(values);
              return update.mutateAsync({ id, ...changes }).then(() => navigate({ to: '/projects' }));
            }}
          />
          <MoveProjectCard project={project} />
        </>
      ) : (
        // A viewer of a team project has nothing to edit: the server would refuse any change.
        <Card>
          <CardContent className="py-10 text-center text-sm text-muted-foreground">{VIEWER_NOTE}</CardContent>
        </Card>
      )}
    </div>
  );
}

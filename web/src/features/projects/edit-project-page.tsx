import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { usePageTitle } from '../../lib/page-title';
import { projectQuery } from '../../lib/queries';
import { BackLink } from '../../ui/back-link';
import { ProjectForm, toProjectInput } from './project-form';
import { ProjectLoadError, ProjectLoading } from './project-load-states';
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
      <ProjectForm
        project={project}
        submitLabel="Update Project"
        pending={update.isPending}
        onSubmit={(values) => {
          // A project stays in its space: the edit sends the rest.
          const { workspaceId: _, ...changes } = toProjectInput(values);
          return update.mutateAsync({ id, ...changes }).then(() => navigate({ to: '/projects' }));
        }}
      />
    </div>
  );
}

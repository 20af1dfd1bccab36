import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { BackLink } from '../components/back-link';
import { ProjectLoadError, ProjectLoading } from '../components/project-load-states';
import { ProjectForm, toProjectInput } from '../components/projects/project-form';
import { useUpdateProject } from '../hooks/use-projects';
import { usePageTitle } from '../lib/page-title';
import { projectQuery } from '../lib/queries';

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
        onSubmit={(values) =>
          update.mutateAsync({ id, ...toProjectInput(values) }).then(() => navigate({ to: '/projects' }))
        }
      />
    </div>
  );
}

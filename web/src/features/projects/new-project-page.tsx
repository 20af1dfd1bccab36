import { useNavigate } from '@tanstack/react-router';
import { BackLink } from '../../ui/back-link';
import { ProjectForm, toProjectInput } from './project-form';
import { listedSpace } from './spaces';
import { useCreateProject } from './use-projects';

export function NewProjectPage() {
  const create = useCreateProject();
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <BackLink to="/projects">Back to Projects</BackLink>
      <h2 className="text-2xl font-semibold tracking-tight">Create a New Project</h2>
      <ProjectForm
        defaultSpace={listedSpace()}
        submitLabel="Create Project"
        pending={create.isPending}
        onSubmit={(values) => create.mutateAsync(toProjectInput(values)).then(() => navigate({ to: '/projects' }))}
      />
    </div>
  );
}

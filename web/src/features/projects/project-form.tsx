import {
  type CreateProjectInput,
  checklistKeys,
  normalizeSocialLinks,
  type Project,
  projectStatuses,
  type SocialLinkKey,
  socialLinkKeys,
} from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { workspacesQuery } from '../../lib/queries';
import { showServerFieldErrors } from '../../lib/server-errors';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Checkbox } from '../../ui/checkbox';
import { FieldError, Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';
import { Textarea } from '../../ui/textarea';
import { type Space, writableSpaces } from './spaces';
import { statuses } from './status-badge';

/**
 * Dollars times 100, rounded, as cents; empty means no estimate. Empty links are dropped. The space
 * is a new project's only: an edit sends everything else (a move is its own call: move-project.tsx).
 */
export function toProjectInput(
  values: ProjectFormValues,
): Omit<CreateProjectInput, 'metadata'> & { metadata: { socialLinks: Record<string, string> } } {
  return {
    name: values.name.trim(),
    status: values.status,
    description: values.description.trim() || null,
    costEstimate: values.cost.trim() === '' ? null : Math.round(Number(values.cost) * 100),
    replitId: values.replitId.trim() || null,
    isPublic: values.isPublic,
    checklist: values.checklist,
    metadata: { socialLinks: normalizeSocialLinks(values.socialLinks) },
    workspaceId: values.workspaceId || null,
  };
}

function defaultsFrom(project?: Project, space?: string): ProjectFormValues {
  return {
    name: project?.name ?? '',
    status: project?.status ?? 'planning',
    description: project?.description ?? '',
    cost:
      project?.costEstimate === null || project?.costEstimate === undefined
        ? ''
        : (project.costEstimate / 100).toFixed(2),
    replitId: project?.replitId ?? '',
    isPublic: project?.isPublic ?? true,
    workspaceId: project?.workspaceId ?? space ?? '',
    checklist: project?.checklist ?? {
      databaseAdded: false,
      authenticationAdded: false,
      deployed: false,
      backedUp: false,
      hasTests: false,
    },
    socialLinks: Object.fromEntries(socialLinkKeys.map((k) => [k, project?.metadata.socialLinks[k] ?? ''])) as Record<
      SocialLinkKey,
      string
    >,
  };
}

const checklistLabels: Record<(typeof checklistKeys)[number], string> = {
  databaseAdded: 'Database added',
  authenticationAdded: 'Authentication added',
  deployed: 'Deployed',
  backedUp: 'Backed up',
  hasTests: 'Has tests',
};
export type ProjectFormValues = FormOutput<'projectFormSchema'>;

const linkLabels: Record<SocialLinkKey, [string, string]> = {
  github: ['GitHub', 'github.com/you/project'],
  website: ['Website', 'example.com'],
  docs: ['Docs', 'docs.example.com'],
  twitter: ['Twitter', '@handle'],
  instagram: ['Instagram', '@handle'],
};

export function ProjectForm({
  project,
  defaultSpace,
  pending,
  submitLabel,
  onSubmit,
}: {
  project?: Project;
  /** The workspace a new project starts in (the one the project list was showing); else Personal. */
  defaultSpace?: string;
  pending: boolean;
  submitLabel: 'Create Project' | 'Update Project';
  /** Its promise (the mutation's) holds the form busy until the server has answered. */
  onSubmit: (values: ProjectFormValues) => Promise<unknown>;
}) {
  const form = useSchemaForm('projectFormSchema', {
    defaultValues: defaultsFrom(project, defaultSpace),
  });
  const { errors } = form.formState;
  const { data: workspaces } = useQuery(workspacesQuery);
  // A new project starts with its name: the cursor is there when the page opens (`c` from anywhere).
  const { setFocus } = form;
  useEffect(() => {
    if (!project) setFocus('name');
  }, [project, setFocus]);
  return (
    <form
      className="space-y-6"
      noValidate
      onSubmit={form.handleSubmit((values) =>
        // What the server refuses (its rules are the form's, but the server has the last word) is shown
        // under its field, as the form's own rules are; the toast says it too.
        onSubmit(values).catch((error: unknown) =>
          showServerFieldErrors(error, form.setError, ['name', 'status', 'description', 'replitId', 'workspaceId']),
        ),
      )}
    >
      <Card>
        <CardHeader>
          <CardTitle>Project</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {project ? null : (
            <SpaceField
              workspaces={workspaces}
              value={form.watch('workspaceId')}
              onChange={(space) => form.setValue('workspaceId', space)}
              error={errors.workspaceId?.message}
            />
          )}
          <TextField id="project-name" label="Project name" error={errors.name?.message} {...form.register('name')} />
          <div className="space-y-2">
            <Label htmlFor="project-status">Status</Label>
            <Select id="project-status" className="w-full" {...form.register('status')}>
              {projectStatuses.map((s) => (
                <option key={s} value={s}>
                  {statuses[s].label}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-2">
            <Label htmlFor="project-description">Description</Label>
            <Textarea
              id="project-description"
              rows={4}
              aria-invalid={Boolean(errors.description)}
              aria-describedby="project-description-error"
              {...form.register('description')}
            />
            <FieldError id="project-description-error" message={errors.description?.message} />
          </div>
          <TextField
            id="project-cost"
            label="Cost estimate (USD)"
            type="number"
            step="0.01"
            min="0"
            inputMode="decimal"
            error={errors.cost?.message}
            {...form.register('cost')}
          />
          <TextField
            id="project-replit"
            label="Replit ID (optional)"
            placeholder="@username/repl-name"
            {...form.register('replitId')}
            error={errors.replitId?.message}
          />
          <div className="flex items-center gap-2">
            <Checkbox
              id="project-public"
              checked={form.watch('isPublic')}
              onCheckedChange={(v) => form.setValue('isPublic', v === true)}
            />
            <Label htmlFor="project-public">Public project</Label>
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Progress checklist</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 sm:grid-cols-2">
          {checklistKeys.map((key) => (
            <div key={key} className="flex items-center gap-2">
              <Checkbox
                id={`project-checklist-${key}`}
                checked={form.watch(`checklist.${key}`)}
                onCheckedChange={(v) => form.setValue(`checklist.${key}`, v === true)}
              />
              <Label htmlFor={`project-checklist-${key}`}>{checklistLabels[key]}</Label>
            </div>
          ))}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Social links (optional)</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {socialLinkKeys.map((key) => (
            <TextField
              key={key}
              id={`project-link-${key}`}
              label={linkLabels[key][0]}
              placeholder={linkLabels[key][1]}
              error={errors.socialLinks?.[key]?.message}
              {...form.register(`socialLinks.${key}`)}
            />
          ))}
        </CardContent>
      </Card>

      <FieldError id="project-form-error" message={errors.root?.message} />
      <div className="flex justify-end gap-2">
        <Button variant="outline" asChild>
          <Link to="/projects">Cancel</Link>
        </Button>
        <Button type="submit" disabled={pending || form.formState.isSubmitting}>
          {pending || form.formState.isSubmitting ? 'Saving...' : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/**
 * Where a new project is made: Personal, or a workspace where the user is a member or more. Shown to
 * users with such a workspace only. The list may still be loading when the form opens with a
 * workspace chosen (the project list's): a choice that turns out not to be one goes back to Personal.
 */
function SpaceField({
  workspaces,
  value,
  onChange,
  error,
}: {
  workspaces: Space[] | undefined;
  value: string;
  onChange: (space: string) => void;
  error: string | undefined;
}) {
  const writable = writableSpaces(workspaces);
  const offered = value === '' || writable.some((workspace) => workspace.id === value);
  useEffect(() => {
    if (workspaces && !offered) onChange('');
  }, [workspaces, offered, onChange]);
  if (writable.length === 0) return null;
  return (
    <div className="space-y-2">
      <Label htmlFor="project-space">Space</Label>
      <Select
        id="project-space"
        className="w-full"
        value={offered ? value : ''}
        aria-invalid={Boolean(error)}
        aria-describedby="project-space-error"
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Personal</option>
        {writable.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
      </Select>
      <FieldError id="project-space-error" message={error} />
    </div>
  );
}

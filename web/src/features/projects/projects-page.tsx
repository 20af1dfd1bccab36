import { arrangeProjects } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { FolderPlus, Plus, Search } from 'lucide-react';
import { useDeferredValue } from 'react';
import { projectsQuery, workspacesQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { Input } from '../../ui/input';
import { Skeleton } from '../../ui/skeleton';
import { accountMonitorsQuery } from '../monitors/use-monitors';
import { ProjectGrid } from './project-card';
import { ProjectFilterSelect, ProjectSortSelect } from './project-controls';
import { SelectionBar, SelectionBox, SelectionContext, useProjectSelection } from './project-selection';
import { canChange, inSpace, knownSpace, SpaceFilterSelect, useListedSpace } from './spaces';

export function ProjectsPage() {
  const search = useSearch({ from: '/app/projects' });
  const q = search.q ?? '';
  const status = search.status ?? 'all';
  const sort = search.sort ?? 'newest';
  const navigate = useNavigate({ from: '/projects' });
  const { data, error, isPending } = useQuery(projectsQuery);
  const { data: monitors } = useQuery(accountMonitorsQuery);
  const { data: workspaces } = useQuery(workspacesQuery);
  const space = knownSpace(search.space, workspaces);
  useListedSpace(space);
  const setSearch = (next: Partial<typeof search>) =>
    navigate({ search: (prev) => ({ ...prev, ...next }), replace: true });
  const filtering = q.trim() !== '' || status !== 'all' || space !== undefined;
  // The field shows each key at once; the list follows as soon as it can (a render React may interrupt).
  const listed = useDeferredValue(q);
  const shown = data
    ? arrangeProjects(
        data.filter((project) => inSpace(project, space)),
        { search: listed, filter: status, sort },
      )
    : [];
  // A team project the user only views has no box: a shift-click's run and the bar's actions leave it out.
  const selectable = shown.filter(canChange);
  const selection = useProjectSelection(selectable);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 md:flex-row md:items-center">
        <div className="relative flex-1">
          <Search className="absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            aria-label="Search projects"
            placeholder="Search projects..."
            className="pl-9"
            value={q}
            onChange={(e) => setSearch({ q: e.target.value })}
          />
        </div>
        <SpaceFilterSelect
          id="projects-space"
          value={space}
          onChange={(value) => setSearch({ space: value })}
          workspaces={workspaces}
        />
        <ProjectFilterSelect
          id="projects-filter"
          value={status}
          onChange={(value) => setSearch({ status: value as typeof status })}
        />
        <ProjectSortSelect
          id="projects-sort"
          value={sort}
          onChange={(value) => setSearch({ sort: value as typeof sort })}
        />
        <Button asChild>
          <Link to="/new-project">
            <Plus /> New Project
          </Link>
        </Button>
      </div>

      <SelectionBar selection={selection} shown={selectable} />

      {isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-72" />
          ))}
        </div>
      ) : error ? (
        <p className="text-destructive">Error loading projects: {error.message}</p>
      ) : data.length === 0 ? (
        <EmptyState title="No projects found" text="Get started by creating your first project." withCreate />
      ) : shown.length === 0 ? (
        <EmptyState title="No matching projects found" text="Try adjusting your search or filters" />
      ) : (
        <SelectionContext value={selection}>
          <ProjectGrid projects={shown} monitors={monitors} workspaces={workspaces} Select={SelectionBox} />
        </SelectionContext>
      )}

      {data ? (
        <p className="text-sm text-muted-foreground" data-testid="projects-footer">
          Showing {shown.length} project(s){filtering ? ' matching your filters' : ''}
        </p>
      ) : null}
    </div>
  );
}

function EmptyState({ title, text, withCreate }: { title: string; text: string; withCreate?: boolean }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <FolderPlus className="size-10 text-muted-foreground" aria-hidden />
        <h2 className="text-lg font-semibold">{title}</h2>
        <p className="text-sm text-muted-foreground">{text}</p>
        {withCreate ? (
          <Button asChild>
            <Link to="/new-project">
              <Plus /> Create Project
            </Link>
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

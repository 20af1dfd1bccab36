import { useQuery } from '@tanstack/react-query';
import { useMatches, useNavigate } from '@tanstack/react-router';
import { Command, defaultFilter } from 'cmdk';
import {
  Activity,
  Bell,
  FolderKanban,
  Keyboard,
  Layers,
  LogOut,
  Moon,
  Pencil,
  PlusCircle,
  Search,
  Sun,
  User,
} from 'lucide-react';
import { type ComponentType, type ReactNode, useCallback, useDeferredValue, useRef, useState } from 'react';
import { useLogout } from '../features/account/use-auth';
import { RecordDialog, type RecordKind, recordKinds } from '../features/projects/record-dialogs';
import { canChange } from '../features/projects/spaces';
import { ReminderFormDialog } from '../features/reminders/reminder-form-dialog';
import { projectQuery, projectsQuery, workspacesQuery } from '../lib/queries';
import { useTheme } from '../lib/theme';
import { Dialog } from '../ui/dialog';
import { navItems, type ShellUser } from './navigation';
import { type KeyboardPanel, shortcuts } from './shortcuts';

/** Pages the sidebar does not list but a keyboard user goes to. */
const morePages = [
  { label: 'Reminders', to: '/reminders', icon: Bell },
  { label: 'Activity History', to: '/activities', icon: Activity },
  { label: 'Profile', to: '/profile', icon: User },
];

/** A project's page is open: its id, for the palette's project actions. */
function useCurrentProjectId(): string | undefined {
  const matches = useMatches();
  const match = matches.find((m) => m.routeId === '/app/projects/$id' || m.routeId === '/app/projects/edit/$id');
  return (match?.params as { id?: string } | undefined)?.id;
}

/** The dashboard's path when it is open (a space is switched there, else on My Projects). */
function useDashboardPath(): '/' | '/dashboard' | undefined {
  const matches = useMatches();
  if (matches.some((m) => m.routeId === '/app/')) return '/';
  if (matches.some((m) => m.routeId === '/app/dashboard')) return '/dashboard';
  return undefined;
}

/** A project-scoped form opened from the palette. */
type Task = { kind: RecordKind | 'reminder'; projectId: string };

/** One line of the palette: its own value (unique), what it shows, and what choosing it does. */
type Entry = {
  key: string;
  label: string;
  icon: ComponentType<{ className?: string }>;
  keys?: string;
  onSelect: () => void;
};

/**
 * What `query` finds among `entries`: a fuzzy match on each label (cmdk's own scoring), best first, at
 * most `limit`; nothing typed, all of them in their order. `best` ranks the groups.
 */
function find(entries: Entry[], query: string, limit = Number.POSITIVE_INFINITY) {
  if (!query) return { entries: entries.slice(0, limit), best: 0 };
  const scored = entries
    .map((entry) => ({ entry, score: defaultFilter(entry.label, query) }))
    .filter((found) => found.score > 0)
    .sort((x, y) => y.score - x.score);
  return { entries: scored.slice(0, limit).map((found) => found.entry), best: scored[0]?.score ?? 0 };
}

/**
 * The command palette (⌘K / Ctrl-K) and the shortcuts sheet (?), loaded the first time either opens.
 * The palette finds any project by a fuzzy match on its name, any page, and runs the app's actions;
 * on a project's page it also records a deployment, backup or release there, or adds a reminder.
 */
export function KeyboardPanels({
  open,
  onOpenChange,
  user,
}: {
  open: KeyboardPanel;
  onOpenChange: (open: KeyboardPanel) => void;
  user: ShellUser;
}) {
  const navigate = useNavigate();
  const projects = useQuery({ ...projectsQuery, enabled: open === 'palette' });
  const workspaces = useQuery({ ...workspacesQuery, enabled: open === 'palette' });
  const { setTheme } = useTheme();
  const logout = useLogout();
  const projectId = useCurrentProjectId();
  // The project on screen, as its page read it: a team project the user only views offers no changes.
  const current = useQuery({ ...projectQuery(projectId ?? ''), enabled: open === 'palette' && Boolean(projectId) });
  const dashboard = useDashboardPath();
  const [task, setTask] = useState<Task | null>(null);
  const [query, setQuery] = useState('');

  const close = (panel: KeyboardPanel = null) => {
    setQuery('');
    onOpenChange(panel);
  };
  const go = (to: string) => () => {
    close();
    void navigate({ to });
  };
  const then = (action: () => void) => () => {
    close();
    action();
  };
  const dark = document.documentElement.classList.contains('dark');
  const projectTasks: Entry[] =
    projectId && (!current.data || canChange(current.data))
      ? [
          ...(Object.keys(recordKinds) as RecordKind[]).map((kind) => ({
            key: kind,
            label: recordKinds[kind].title,
            icon: recordKinds[kind].icon,
            onSelect: then(() => setTask({ kind, projectId })),
          })),
          {
            key: 'reminder',
            label: 'Add Reminder',
            icon: Bell,
            onSelect: then(() => setTask({ kind: 'reminder', projectId })),
          },
          { key: 'edit', label: 'Edit Project', icon: Pencil, onSelect: go(`/projects/edit/${projectId}`) },
        ]
      : [];
  const actions: Entry[] = [
    { key: 'new', label: 'New Project', icon: PlusCircle, keys: 'c', onSelect: go('/new-project') },
    {
      key: 'theme',
      label: dark ? 'Switch to light theme' : 'Switch to dark theme',
      icon: dark ? Sun : Moon,
      onSelect: then(() => setTheme(dark ? 'light' : 'dark')),
    },
    { key: 'shortcuts', label: 'Keyboard shortcuts', icon: Keyboard, keys: '?', onSelect: () => close('shortcuts') },
    { key: 'logout', label: 'Sign Out', icon: LogOut, onSelect: then(() => logout.mutate()) },
  ];
  const projectEntries: Entry[] = (projects.data ?? []).map((project) => ({
    key: `project ${project.id}`,
    label: project.name,
    icon: FolderKanban,
    onSelect: go(`/projects/${project.id}`),
  }));
  // Each space the project lists filter by, switched where the user is (the dashboard, else My Projects).
  const switchTo = (space: string | undefined) =>
    then(() =>
      dashboard
        ? void navigate({ to: dashboard, search: (prev) => ({ ...prev, space }) })
        : void navigate({ to: '/projects', search: space ? { space } : {} }),
    );
  const spaces: Entry[] =
    workspaces.data && workspaces.data.length > 0
      ? [
          { key: 'space all', label: 'Switch space: All spaces', icon: Layers, onSelect: switchTo(undefined) },
          { key: 'space personal', label: 'Switch space: Personal', icon: Layers, onSelect: switchTo('personal') },
          ...workspaces.data.map((workspace) => ({
            key: `space ${workspace.id}`,
            label: `Switch space: ${workspace.name}`,
            icon: Layers,
            onSelect: switchTo(workspace.id),
          })),
        ]
      : [];
  const pages: Entry[] = [...navItems.filter((item) => !item.adminOnly || user.isAdmin), ...morePages].map((item) => ({
    key: `page ${item.label}`,
    label: item.label,
    icon: item.icon,
    onSelect: go(item.to),
  }));
  const groups: FoundGroup[] = [
    { heading: 'This project', found: find(projectTasks, query) },
    { heading: 'Actions', found: find(actions, query) },
    // A few projects until something is typed, the best matches after: the list stays short to draw.
    { heading: 'Projects', found: find(projectEntries, query, query ? 20 : 8), loading: projects.isPending },
    { heading: 'Spaces', found: find(spaces, query) },
    { heading: 'Pages', found: find(pages, query) },
  ];
  // Typed, the group with the best match comes first.
  if (query) groups.sort((x, y) => y.found.best - x.found.best);

  return (
    <>
      {open === 'palette' ? (
        <PaletteDialog onClose={() => close()}>
          <Command label="Command palette" loop shouldFilter={false}>
            <div className="flex items-center gap-2 border-b px-3">
              <Search className="size-4 text-muted-foreground" aria-hidden />
              <Command.Input
                autoFocus
                value={query}
                onValueChange={setQuery}
                placeholder="Search projects, pages and actions…"
                className="h-12 w-full bg-card text-sm outline-none placeholder:text-muted-foreground"
              />
            </div>
            {/* One height whatever it finds: the palette stays where it is as the list narrows. */}
            <Command.List className="h-72 overflow-y-auto p-2" label="Results">
              <Results groups={groups} typed={query !== ''} />
            </Command.List>
          </Command>
        </PaletteDialog>
      ) : null}

      <Dialog
        open={open === 'shortcuts'}
        onOpenChange={(next) => close(next ? 'shortcuts' : null)}
        title="Keyboard shortcuts"
        description="They work anywhere but in a text field or an open dialog."
      >
        <dl className="grid grid-cols-2 items-center gap-3 text-sm">
          <dt>
            <Keys keys={`${navigator.platform.startsWith('Mac') ? '⌘' : 'Ctrl'} K`} />
          </dt>
          <dd>Open the command palette</dd>
          {shortcuts.map(({ keys, label }) => (
            <ShortcutRow key={keys} keys={keys} label={label} />
          ))}
        </dl>
      </Dialog>

      {task?.kind === 'reminder' ? (
        <ReminderFormDialog projectId={task.projectId} open onOpenChange={(next) => !next && setTask(null)} />
      ) : task ? (
        <RecordDialog
          projectId={task.projectId}
          kind={task.kind}
          open
          onOpenChange={(next) => !next && setTask(null)}
        />
      ) : null}
    </>
  );
}

function ShortcutRow({ keys, label }: { keys: string; label: string }) {
  return (
    <>
      <dt>
        <Keys keys={keys} />
      </dt>
      <dd>{label}</dd>
    </>
  );
}

/** Keys as typed, one box each: "g d" is g, then d. */
function Keys({ keys }: { keys: string }) {
  return (
    <span className="flex gap-1">
      {keys.split(' ').map((key, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same key can be typed twice
        <kbd key={i} className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs text-muted-foreground">
          {key}
        </kbd>
      ))}
    </span>
  );
}

/**
 * The palette's window: the browser's own modal `<dialog>` (its top layer, its focus trap, Escape),
 * shown as it mounts. Lighter to open than a scripted one, which locks the page's scrolling and hides
 * every other element from assistive technology by hand: the palette opens in the frame of the key.
 * Focus goes back where it was when it closes; a click on the backdrop closes it.
 */
function PaletteDialog({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const from = useRef<Element | null>(null);
  const show = useCallback((dialog: HTMLDialogElement | null) => {
    if (!dialog) return;
    from.current = document.activeElement;
    dialog.showModal();
    // The field, not the first thing that takes focus (cmdk's list root does): what is typed lands there.
    dialog.querySelector('input')?.focus();
    return () => {
      const back = from.current;
      if (back instanceof HTMLElement && back.isConnected) queueMicrotask(() => back.focus());
    };
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop's click; Escape closes it through `cancel`
    <dialog
      ref={show}
      aria-label="Command palette"
      className="m-auto w-[calc(100%-2rem)] max-w-lg overflow-hidden rounded-xl border bg-card text-card-foreground shadow-lg backdrop:bg-black/50"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      {children}
    </dialog>
  );
}

type FoundGroup = { heading: string; found: ReturnType<typeof find>; loading?: boolean };

/**
 * The palette's results, drawn in a render of their own just after it opens: the field paints in the
 * frame of the key press, and the list follows in the next (at once when something is typed first).
 */
function Results({ groups, typed }: { groups: FoundGroup[]; typed: boolean }) {
  const drawn = useDeferredValue(true, false);
  // Typed before then, the results come at once: a key typed straight after ⌘K, then Enter, still picks.
  if (!drawn && !typed) return null;
  return (
    <>
      <Command.Empty className="py-6 text-center text-sm text-muted-foreground">No results found.</Command.Empty>
      {groups.map(({ heading, found, loading }) =>
        found.entries.length > 0 || loading ? (
          <Group key={heading} heading={heading}>
            {loading ? (
              <Command.Loading>
                <p className="px-2 py-1.5 text-sm text-muted-foreground">Loading projects…</p>
              </Command.Loading>
            ) : null}
            {found.entries.map(({ key, label, icon, keys, onSelect }) => (
              <Item key={key} value={key} icon={icon} keys={keys} onSelect={onSelect}>
                {label}
              </Item>
            ))}
          </Group>
        ) : null,
      )}
    </>
  );
}

function Group({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <Command.Group
      heading={<span className="block px-2 py-1.5 text-xs font-medium text-muted-foreground">{heading}</span>}
    >
      {children}
    </Command.Group>
  );
}

function Item({
  icon: Icon,
  keys,
  children,
  ...props
}: {
  icon: ComponentType<{ className?: string }>;
  keys?: string;
  children: ReactNode;
  value: string;
  onSelect: () => void;
}) {
  return (
    <Command.Item
      {...props}
      className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm data-[selected=true]:bg-accent"
    >
      <Icon className="size-4 shrink-0 text-muted-foreground" />
      <span className="truncate">{children}</span>
      {keys ? (
        <span className="ml-auto">
          <Keys keys={keys} />
        </span>
      ) : null}
    </Command.Item>
  );
}

import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { useMatches, useNavigate } from '@tanstack/react-router';
import { Command } from 'cmdk';
import {
  Activity,
  Bell,
  FolderKanban,
  Keyboard,
  LogOut,
  Moon,
  Pencil,
  PlusCircle,
  Search,
  Sun,
  User,
} from 'lucide-react';
import { type ComponentType, type ReactNode, useState } from 'react';
import { useLogout } from '../../hooks/use-auth';
import { projectsQuery } from '../../lib/queries';
import { shortcuts } from '../../lib/shortcuts';
import { useTheme } from '../../lib/theme';
import { RecordDialog, type RecordKind, recordKinds } from '../projects/record-dialogs';
import { ReminderFormDialog } from '../reminders/reminder-form-dialog';
import { navItems, type ShellUser } from '../shell/app-shell';
import { Dialog } from '../ui/dialog';
import { useFocusReturn } from '../ui/dialog-panels';

/** What the shell has open: the palette, the shortcuts sheet, or neither. */
export type KeyboardPanel = 'palette' | 'shortcuts' | null;

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

/** A project-scoped form opened from the palette. */
type Task = { kind: RecordKind | 'reminder'; projectId: string };

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
  const { setTheme } = useTheme();
  const logout = useLogout();
  const projectId = useCurrentProjectId();
  const [task, setTask] = useState<Task | null>(null);
  const [query, setQuery] = useState('');
  const focusReturn = useFocusReturn();

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
  const pages = [...navItems.filter((item) => !item.adminOnly || user.isAdmin), ...morePages];
  const dark = document.documentElement.classList.contains('dark');

  return (
    <>
      <DialogPrimitive.Root open={open === 'palette'} onOpenChange={(next) => close(next ? 'palette' : null)}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
          <DialogPrimitive.Content
            {...focusReturn}
            className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-hidden rounded-xl border bg-card shadow-lg"
            aria-describedby={undefined}
          >
            <DialogPrimitive.Title className="sr-only">Command palette</DialogPrimitive.Title>
            <Command label="Command palette" loop>
              <div className="flex items-center gap-2 border-b px-3">
                <Search className="size-4 text-muted-foreground" aria-hidden />
                <Command.Input
                  value={query}
                  onValueChange={setQuery}
                  placeholder="Search projects, pages and actions…"
                  className="h-12 w-full bg-card text-sm outline-none placeholder:text-muted-foreground"
                />
              </div>
              {/* One height whatever it finds: the palette stays where it is as the list narrows. */}
              <Command.List className="h-72 overflow-y-auto p-2" label="Results">
                <Command.Empty className="py-6 text-center text-sm text-muted-foreground">
                  No results found.
                </Command.Empty>
                {projectId ? (
                  <Group heading="This project">
                    {(Object.keys(recordKinds) as RecordKind[]).map((kind) => (
                      <Item
                        key={kind}
                        icon={recordKinds[kind].icon}
                        onSelect={then(() => setTask({ kind, projectId }))}
                      >
                        {recordKinds[kind].title}
                      </Item>
                    ))}
                    <Item icon={Bell} onSelect={then(() => setTask({ kind: 'reminder', projectId }))}>
                      Add Reminder
                    </Item>
                    <Item icon={Pencil} onSelect={go(`/projects/edit/${projectId}`)}>
                      Edit Project
                    </Item>
                  </Group>
                ) : null}
                <Group heading="Actions">
                  <Item icon={PlusCircle} onSelect={go('/new-project')} keys="c">
                    New Project
                  </Item>
                  <Item icon={dark ? Sun : Moon} onSelect={then(() => setTheme(dark ? 'light' : 'dark'))}>
                    {dark ? 'Switch to light theme' : 'Switch to dark theme'}
                  </Item>
                  <Item icon={Keyboard} onSelect={() => close('shortcuts')} keys="?">
                    Keyboard shortcuts
                  </Item>
                  <Item icon={LogOut} onSelect={then(() => logout.mutate())}>
                    Sign Out
                  </Item>
                </Group>
                <Group heading="Projects">
                  {projects.isPending ? (
                    <Command.Loading>
                      <p className="px-2 py-1.5 text-sm text-muted-foreground">Loading projects…</p>
                    </Command.Loading>
                  ) : null}
                  {(projects.data ?? []).map((project) => (
                    <Item
                      key={project.id}
                      value={`project ${project.id}`}
                      keywords={[project.name]}
                      icon={FolderKanban}
                      onSelect={go(`/projects/${project.id}`)}
                    >
                      {project.name}
                    </Item>
                  ))}
                </Group>
                <Group heading="Pages">
                  {pages.map((item) => (
                    <Item
                      key={item.to}
                      value={`page ${item.label}`}
                      keywords={[item.label]}
                      icon={item.icon}
                      onSelect={go(item.to)}
                    >
                      {item.label}
                    </Item>
                  ))}
                </Group>
              </Command.List>
            </Command>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>

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
  value?: string;
  keywords?: string[];
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

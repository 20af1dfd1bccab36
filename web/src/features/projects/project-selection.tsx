import type { Project, ProjectStatus } from '@shiplog/schemas';
import { projectStatuses } from '@shiplog/schemas';
import { Globe, Lock, Trash2, X } from 'lucide-react';
import { createContext, useContext, useState, useSyncExternalStore } from 'react';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { ConfirmDialog } from '../../ui/dialog';
import { Select } from '../../ui/select';
import { statuses } from './status-badge';
import { type BulkChange, useBulkChange } from './use-bulk-projects';

/** Which projects are ticked, outside React's state: a tick re-renders its own box and the bar, not every card. */
export interface SelectionStore {
  /** The projects on screen, in order (a shift-click's run is counted over them). */
  shown: Project[];
  picked(): ReadonlySet<string>;
  subscribe(listener: () => void): () => void;
  set(next: ReadonlySet<string>): void;
  toggle(id: string, run: boolean): void;
}

function createSelection(): SelectionStore {
  let picked: ReadonlySet<string> = new Set();
  let last: string | null = null;
  const listeners = new Set<() => void>();
  const store: SelectionStore = {
    shown: [],
    picked: () => picked,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      picked = next;
      for (const listener of listeners) listener();
    },
    // A shift-click selects (or clears) the run since the last box.
    toggle(id, run) {
      const on = !picked.has(id);
      const list = store.shown;
      const from = run && last ? list.findIndex((p) => p.id === last) : -1;
      const to = list.findIndex((p) => p.id === id);
      const ids = from >= 0 && to >= 0 ? list.slice(Math.min(from, to), Math.max(from, to) + 1).map((p) => p.id) : [id];
      const next = new Set(picked);
      for (const each of ids) on ? next.add(each) : next.delete(each);
      last = id;
      store.set(next);
    },
  };
  return store;
}

/** The page's selection, for the boxes on its cards. */
export const SelectionContext = createContext<SelectionStore | null>(null);

/** The box on each card (ProjectGrid's `Select`, inside a SelectionContext): re-rendered when its own tick changes. */
export function SelectionBox({ project }: { project: Project }) {
  const store = useContext(SelectionContext)!;
  const checked = useSyncExternalStore(store.subscribe, () => store.picked().has(project.id));
  return (
    <Checkbox
      className="mt-3"
      data-select
      aria-label={`Select ${project.name}`}
      checked={checked}
      onClick={(event) => store.toggle(project.id, event.shiftKey)}
    />
  );
}

/**
 * My Projects' selection: a box on each card (click, Space, or `x` on a focused card; shift-click
 * selects the run since the last one), and the actions for what is selected (SelectionBar).
 */
export function useProjectSelection(shown: Project[]): SelectionStore {
  const [selection] = useState(createSelection);
  selection.shown = shown;
  return selection;
}

/** The actions on the selected projects: a status, public or private, or delete (after a confirmation, with an Undo). */
export function SelectionBar({ selection, shown }: { selection: SelectionStore; shown: Project[] }) {
  const change = useBulkChange();
  const [confirm, setConfirm] = useState(false);
  const picked = useSyncExternalStore(selection.subscribe, selection.picked);
  // Only what is on screen counts: a filtered-out or deleted project is not acted on.
  const selected = shown.filter((p) => picked.has(p.id)).map((p) => p.id);
  const onDone = () => selection.set(new Set());
  if (selected.length === 0) return null;
  const apply = (what: BulkChange) => change.mutate({ ids: selected, change: what }, { onSuccess: onDone });
  return (
    <section
      aria-label="Selected projects"
      className="flex flex-wrap items-center gap-2 rounded-lg border bg-card p-3"
      data-testid="selection-bar"
    >
      <p className="text-sm font-medium">{selected.length} selected</p>
      <Select
        aria-label="Change status"
        value=""
        disabled={change.isPending}
        onChange={(event) => apply({ status: event.target.value as ProjectStatus })}
      >
        <option value="" disabled>
          Change status…
        </option>
        {projectStatuses.map((status) => (
          <option key={status} value={status}>
            {statuses[status].label}
          </option>
        ))}
      </Select>
      <Button variant="outline" size="sm" disabled={change.isPending} onClick={() => apply({ isPublic: true })}>
        <Globe /> Make public
      </Button>
      <Button variant="outline" size="sm" disabled={change.isPending} onClick={() => apply({ isPublic: false })}>
        <Lock /> Make private
      </Button>
      <Button variant="destructive" size="sm" disabled={change.isPending} onClick={() => setConfirm(true)}>
        <Trash2 /> Delete
      </Button>
      <Button variant="ghost" size="sm" className="ml-auto" onClick={onDone}>
        <X /> Clear selection
      </Button>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Are you sure?"
        description={`This will delete ${selected.length} project(s) and all associated data. You can undo it for 10 seconds.`}
        confirmLabel="Delete"
        onConfirm={() => {
          setConfirm(false);
          // Held for its Undo (lib/held.ts): the bar is free at once for another selection.
          change.mutate({ ids: selected, change: 'delete' });
          onDone();
        }}
      />
    </section>
  );
}

import type { Project, ProjectStatus } from '@shiplog/schemas';
import { projectStatuses } from '@shiplog/schemas';
import { Globe, Lock, Trash2, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { type BulkChange, useBulkChange } from '../../hooks/use-bulk-projects';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { ConfirmDialog } from '../ui/dialog';
import { Select } from '../ui/select';
import { statuses } from './status-badge';

/**
 * My Projects' selection: a box on each card (click, Space, or `x` on a focused card; shift-click
 * selects the run since the last one), and the actions for what is selected.
 */
export function useProjectSelection(shown: Project[]) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const last = useRef<string | null>(null);
  // Only what is on screen counts: a filtered-out or deleted project is not acted on.
  const selected = shown.filter((p) => picked.has(p.id)).map((p) => p.id);

  const toggle = (id: string, on: boolean, run: boolean) => {
    const from = run && last.current ? shown.findIndex((p) => p.id === last.current) : -1;
    const to = shown.findIndex((p) => p.id === id);
    const ids = from >= 0 && to >= 0 ? shown.slice(Math.min(from, to), Math.max(from, to) + 1).map((p) => p.id) : [id];
    setPicked((before) => {
      const next = new Set(before);
      for (const each of ids) on ? next.add(each) : next.delete(each);
      return next;
    });
    last.current = id;
  };

  const box = (project: Project) => (
    <Checkbox
      className="mt-3"
      data-select
      aria-label={`Select ${project.name}`}
      checked={picked.has(project.id)}
      // A shift-click selects (or clears) the run since the last box.
      onClick={(event) => toggle(project.id, !picked.has(project.id), event.shiftKey)}
    />
  );

  return { selected, box, clear: () => setPicked(new Set()) };
}

/** The actions on the selected projects: a status, public or private, or delete (after a confirmation). */
export function SelectionBar({ selected, onDone }: { selected: string[]; onDone: () => void }) {
  const change = useBulkChange();
  const [confirm, setConfirm] = useState(false);
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
        description={`This will permanently delete ${selected.length} project(s) and all associated data. This action cannot be undone.`}
        confirmLabel={change.isPending ? 'Deleting...' : 'Delete'}
        pending={change.isPending}
        onConfirm={() => {
          setConfirm(false);
          apply('delete');
        }}
      />
    </section>
  );
}

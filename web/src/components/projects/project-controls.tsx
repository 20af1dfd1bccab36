import { projectFilters, projectSorts } from '@shiplog/schemas';
import { Select } from '../ui/select';

const filterLabels: Record<(typeof projectFilters)[number], string> = {
  all: 'All statuses',
  planning: 'Planning',
  development: 'Development',
  deployed: 'Deployed',
  blocked: 'Blocked',
};
const sortLabels: Record<(typeof projectSorts)[number], string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  name_asc: 'Name (A–Z)',
  name_desc: 'Name (Z–A)',
};

export function ProjectFilterSelect({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange: (value: string) => void;
  id: string;
}) {
  return (
    <Select id={id} aria-label="Filter by status" value={value} onChange={(e) => onChange(e.target.value)}>
      {projectFilters.map((f) => (
        <option key={f} value={f}>
          {filterLabels[f]}
        </option>
      ))}
    </Select>
  );
}

export function ProjectSortSelect({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange: (value: string) => void;
  id: string;
}) {
  return (
    <Select id={id} aria-label="Sort projects" value={value} onChange={(e) => onChange(e.target.value)}>
      {projectSorts.map((s) => (
        <option key={s} value={s}>
          {sortLabels[s]}
        </option>
      ))}
    </Select>
  );
}

import type { projectFilters, projectSorts } from '@shiplog/schemas';
import { Select } from '../../ui/select';

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

interface ControlProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
}

function OptionsSelect({
  id,
  value,
  onChange,
  label,
  options,
}: ControlProps & { label: string; options: Record<string, string> }) {
  return (
    <Select id={id} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {Object.entries(options).map(([option, text]) => (
        <option key={option} value={option}>
          {text}
        </option>
      ))}
    </Select>
  );
}

export const ProjectFilterSelect = (props: ControlProps) => (
  <OptionsSelect {...props} label="Filter by status" options={filterLabels} />
);
export const ProjectSortSelect = (props: ControlProps) => (
  <OptionsSelect {...props} label="Sort projects" options={sortLabels} />
);

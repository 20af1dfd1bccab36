import type { Project } from './views.ts';

/**
 * The projects' plain values and helpers (spec/core.md §3–§5, §9), without zod: statuses, checklist
 * and link keys, the lists' filter and sort. The web app's first load uses these; zod comes with its
 * forms (projects.ts).
 */
export const projectStatuses = ['planning', 'development', 'deployed', 'blocked'] as const;
export type ProjectStatus = (typeof projectStatuses)[number];

export const checklistKeys = ['databaseAdded', 'authenticationAdded', 'deployed', 'backedUp', 'hasTests'] as const;
export type ChecklistKey = (typeof checklistKeys)[number];
export type Checklist = Record<ChecklistKey, boolean>;
export const emptyChecklist = (): Checklist => ({
  databaseAdded: false,
  authenticationAdded: false,
  deployed: false,
  backedUp: false,
  hasTests: false,
});

/** Where a deploy webhook's deliveries come from: a platform's own payload shape, or Shiplog's generic one. */
export const deployHookPlatforms = ['generic', 'vercel', 'netlify'] as const;
export type DeployHookPlatform = (typeof deployHookPlatforms)[number];

export const socialLinkKeys = ['github', 'website', 'docs', 'twitter', 'instagram'] as const;
export type SocialLinkKey = (typeof socialLinkKeys)[number];
export type SocialLinks = Partial<Record<SocialLinkKey, string>>;

const handleSites: Partial<Record<SocialLinkKey, string>> = {
  twitter: 'https://twitter.com/',
  instagram: 'https://instagram.com/',
};

/**
 * What a user types into a link field, as a URL. For twitter and instagram a handle becomes the
 * profile URL: '@name' always (Instagram names may hold dots: '@pixelforge.art'), a bare name when it
 * has no dot or slash. Anything else without http(s) gets https:// in front ('x.com/ada').
 */
export function normalizeSocialLink(key: SocialLinkKey, raw: string): string {
  const value = raw.trim();
  if (!value) return '';
  if (/^https?:\/\//i.test(value)) return value;
  const site = handleSites[key];
  const handle = value.replace(/^@+/, '');
  if (site && !handle.includes('/') && (value.startsWith('@') || !handle.includes('.'))) return site + handle;
  return `https://${handle}`;
}

/** Normalises each link and drops the empty ones. */
export function normalizeSocialLinks(links: Partial<Record<string, unknown>> | null | undefined): SocialLinks {
  const out: SocialLinks = {};
  for (const key of socialLinkKeys) {
    const value = links?.[key];
    if (typeof value === 'string' && value.trim()) out[key] = normalizeSocialLink(key, value);
  }
  return out;
}

export const projectSorts = ['newest', 'oldest', 'name_asc', 'name_desc'] as const;
export type ProjectSort = (typeof projectSorts)[number];
export const projectFilters = ['all', ...projectStatuses] as const;
export type ProjectFilter = (typeof projectFilters)[number];

/**
 * The project lists' search, status filter and sort (spec/core.md §2, §9): search matches name and
 * description without regard to case; names sort alphabetically the same way.
 */
export function arrangeProjects<P extends Pick<Project, 'name' | 'description' | 'status' | 'createdAt'>>(
  projects: P[],
  options: { filter?: string; sort?: string; search?: string },
): P[] {
  const filter = options.filter ?? 'all';
  const search = options.search?.trim().toLowerCase() ?? '';
  const filtered = projects.filter(
    (p) =>
      (filter === 'all' || !(projectStatuses as readonly string[]).includes(filter) || p.status === filter) &&
      (!search || p.name.toLowerCase().includes(search) || (p.description ?? '').toLowerCase().includes(search)),
  );
  const byName = (a: P, b: P) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  const byCreated = (a: P, b: P) => a.createdAt.localeCompare(b.createdAt);
  const order: Record<ProjectSort, (a: P, b: P) => number> = {
    newest: (a, b) => byCreated(b, a),
    oldest: byCreated,
    name_asc: byName,
    name_desc: (a, b) => byName(b, a),
  };
  return [...filtered].sort(order[options.sort as ProjectSort] ?? order.newest);
}

/** Whether a profile is public or private (projectVisibility, spec/account.md). */
export const projectVisibilities = ['public', 'private'] as const;

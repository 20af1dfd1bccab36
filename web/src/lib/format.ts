/** Cents as dollars with two decimals, or 'N/A' (spec/core.md §2, §9). */
export function formatCost(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? 'N/A' : `$${(cents / 100).toFixed(2)}`;
}

/** A count with its noun: `1 project`, `3 projects`, `2 timeline entries` (the plural given when not `-s`). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const tokens = /yyyy|MMM|MM|dd|d|EEEE|HH|h|mm|a|p/g;

const two = (n: number) => String(n).padStart(2, '0');
const hour12 = (date: Date) => date.getHours() % 12 || 12;
const period = (date: Date) => (date.getHours() < 12 ? 'AM' : 'PM');

const parts: Record<string, (date: Date) => string> = {
  yyyy: (date) => String(date.getFullYear()),
  MMM: (date) => months[date.getMonth()]!,
  MM: (date) => two(date.getMonth() + 1),
  dd: (date) => two(date.getDate()),
  d: (date) => String(date.getDate()),
  EEEE: (date) => weekdays[date.getDay()]!,
  HH: (date) => two(date.getHours()),
  h: (date) => String(hour12(date)),
  mm: (date) => two(date.getMinutes()),
  a: period,
  p: (date) => `${hour12(date)}:${two(date.getMinutes())} ${period(date)}`,
};

/**
 * A date as the app shows it, in the user's time zone: `formatDate(date, 'MMM d, yyyy h:mm a')`; by
 * default month, day and year. The patterns are date-fns's, for the tokens the app uses (yyyy, MMM,
 * MM, dd, d, EEEE, HH, h, mm, a, p), in English, as the app is. Its own few lines, not date-fns's
 * `format`: that one carries every token and locale (about 5.5 KB gzipped) into every signed-in
 * page's first load (decision 023).
 */
export function formatDate(date: Date | string, pattern = 'MMM d, yyyy'): string {
  const at = typeof date === 'string' ? new Date(date) : date;
  return pattern.replace(tokens, (token) => parts[token]!(at));
}

/** An activity's project: the part of its details after ': ' (spec/core.md §4). */
export function projectNameOf(details: string): string | undefined {
  return details.split(': ')[1];
}

/** The avatar's initials: the username's first two letters in upper case, or 'U' without a name. */
export function initials(username: string | null | undefined): string {
  const name = username?.trim();
  return name ? name.slice(0, 2).toUpperCase() : 'U';
}

/** A version as the public pages show it: 1.2.0 and v1.2.0 alike as v1.2.0; a name that is no number as written. */
export const versionLabel = (version: string): string =>
  /^v?\d/.test(version) ? `v${version.replace(/^v/, '')}` : version;

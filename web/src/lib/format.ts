import { format } from 'date-fns';

/** Cents as dollars with two decimals, or 'N/A' (spec/core.md §2, §9). */
export function formatCost(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? 'N/A' : `$${(cents / 100).toFixed(2)}`;
}

export function formatDate(iso: string): string {
  return format(new Date(iso), 'MMM d, yyyy');
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

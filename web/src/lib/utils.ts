import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** The avatar's initials: the username's first two letters in upper case, or 'U' without a name. */
export function initials(username: string | null | undefined): string {
  const name = username?.trim();
  return name ? name.slice(0, 2).toUpperCase() : 'U';
}

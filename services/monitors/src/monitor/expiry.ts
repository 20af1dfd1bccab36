/** Days before a certificate or a domain's registration ends at which its owner is told: once at each. */
export const EXPIRY_WARNINGS = [14, 7, 1] as const;
export type ExpiryWarning = (typeof EXPIRY_WARNINGS)[number];

const DAY_MS = 86_400_000;

/**
 * The warning something ending at `expiresAt` (a certificate, a domain's registration) is due at `now`:
 * the nearest of 14, 7 and 1 days that it is within, or null (more than 14 days left, or already
 * ended: then the check itself fails).
 */
export function expiryWarning(expiresAt: Date, now: Date): ExpiryWarning | null {
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return null;
  return [...EXPIRY_WARNINGS].reverse().find((days) => left <= days * DAY_MS) ?? null;
}

/** Whole days left, at least 1 while it is still valid: what the warning says. */
export const daysLeft = (expiresAt: Date, now: Date) =>
  Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS));

/**
 * Whether a warning is still to be given: not when this end was already warned of at this many days
 * or fewer. A renewal (another end) starts again.
 */
export function isNewWarning(
  warning: ExpiryWarning,
  expiresAt: string,
  warned: { expiresAt: string; days: number } | null,
): boolean {
  return !warned || warned.expiresAt !== expiresAt || warned.days > warning;
}

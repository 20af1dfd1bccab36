/** Subscription statuses and the subscribed tier (spec/account.md §6), without zod. */
export const subscriptionStatuses = [
  'trialing',
  'active',
  'paid',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Active and paid count as subscribed (pro): the tier Quick Update and the full chat need. */
export const isSubscribed = (status: SubscriptionStatus | null | undefined): boolean =>
  status === 'active' || status === 'paid';

/** The yearly saving against 12 monthly payments, in whole percent (spec/account.md §9). */
export function yearlySavingsPercent(monthly: number, yearly: number): number {
  if (monthly <= 0) return 0;
  return Math.max(0, Math.round((1 - yearly / (monthly * 12)) * 100));
}

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

/**
 * The paid tier's features (monitors, team workspaces) are the account's while it is in its trial or
 * subscribed (active or paid, until a cancelled period ends: billing's status already says so). An
 * account billing has not seen yet (null) is starting its trial. Otherwise its monitors pause, none is
 * added, and no workspace is created.
 */
export const inPaidTier = (
  plan: { status: SubscriptionStatus | null; trialEndDate: string | null },
  now: Date,
): boolean =>
  plan.status === null ||
  isSubscribed(plan.status) ||
  (plan.status === 'trialing' && plan.trialEndDate !== null && Date.parse(plan.trialEndDate) > now.getTime());

export const MONITORS_NEED_PLAN_MESSAGE =
  'Monitors run during your trial or with a subscription. Please upgrade to add or resume one.';

/** The yearly saving against 12 monthly payments, in whole percent (spec/account.md §9). */
export function yearlySavingsPercent(monthly: number, yearly: number): number {
  if (monthly <= 0) return 0;
  return Math.max(0, Math.round((1 - yearly / (monthly * 12)) * 100));
}

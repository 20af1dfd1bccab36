/**
 * The catalog's own value lists: the values stored events hold. They are frozen apart from the API's
 * lists (`@shiplog/schemas`), which validate commands and may drop a value: a stored event holding it
 * must still load. So a value is only ever added here, and an old one is kept for the events that hold
 * it. Every value the API accepts must be here too, or a command's event would not validate
 * (`catalog.unit.test.ts` checks both). Written out as they were when the catalog stopped importing the
 * API's lists; in the same order, so the inferred types are the API's own while the lists agree.
 */

/** SubscriptionStatusChanged's `from` and `to`. */
export const subscriptionStatuses = [
  'trialing',
  'active',
  'paid',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
] as const;

/** An administrator's comment's priority. */
export const commentPriorities = ['normal', 'high', 'urgent'] as const;

export const projectStatuses = ['planning', 'development', 'deployed', 'blocked'] as const;

/** A project's checklist: one flag each. */
export const checklistKeys = ['databaseAdded', 'authenticationAdded', 'deployed', 'backedUp', 'hasTests'] as const;

/** Where a deployment recorded by a deploy webhook came from. */
export const deployHookPlatforms = ['generic', 'vercel', 'netlify'] as const;

export const reminderTimes = [
  'at_time',
  '5_minutes_before',
  '15_minutes_before',
  '30_minutes_before',
  '1_hour_before',
  '3_hours_before',
  '6_hours_before',
  '12_hours_before',
  '1_day_before',
  '2_days_before',
  '1_week_before',
] as const;

export const reminderFrequencies = ['once', 'daily', 'weekly', 'monthly'] as const;

/** A member's role in a team workspace, most powerful first. */
export const workspaceRoles = ['owner', 'admin', 'member', 'viewer'] as const;

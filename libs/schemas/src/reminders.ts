import { z } from 'zod';
import { reminderTimes } from './reminder-values.ts';

/** Reminders (spec/core.md §3–§5, §9), shared by the web forms and the reminders service. */
export const reminderFrequencies = ['once', 'daily', 'weekly', 'monthly'] as const;
export type ReminderFrequency = (typeof reminderFrequencies)[number];

const title = z
  .string({ error: 'Title must be at least 3 characters' })
  .trim()
  .min(3, 'Title must be at least 3 characters')
  .max(100, 'Title must be at most 100 characters');
const description = z
  .string({ error: 'Description must be text' })
  .max(2000, 'Description must be at most 2000 characters')
  .nullable()
  .transform((v) => (v === null || v.trim() === '' ? null : v));
/**
 * Years 1 to 9999: what people mean by a date, and what PostgreSQL can store. `z.coerce.date` takes
 * any year a JavaScript Date holds (back to 271,821 BC), which a timestamp column refuses.
 */
export const isStorableDate = (date: Date): boolean => {
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999;
};

/** A date or date-time; missing, empty or unreadable is 'Due date is required'. */
const dueDate = z.preprocess(
  (value) => (value === null || value === '' ? undefined : value),
  z.coerce
    .date({ error: 'Due date is required' })
    .refine(isStorableDate, 'Due date must be between the years 1 and 9999'),
);
const times = z
  .array(z.enum(reminderTimes, { error: `Reminder times must be among ${reminderTimes.join(', ')}` }), {
    error: 'Select at least one reminder time',
  })
  .min(1, 'Select at least one reminder time')
  .transform((list) => [...new Set(list)]);
const frequency = z.enum(reminderFrequencies, { error: 'Frequency must be once, daily, weekly or monthly' });

export const ASSIGNEE_MESSAGE = 'Assignee must be a member of the project’s workspace who can change it';

/** Who a reminder reaches: a user's id (the route checks they may change the project). */
const assigneeId = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.uuid({ error: ASSIGNEE_MESSAGE }).optional(),
);

export const createReminderSchema = z.object({
  projectId: z.string({ error: 'Invalid project' }).min(1, 'Invalid project'),
  title,
  description: description.optional().default(null),
  dueDate,
  reminderTimes: times.optional().default(['1_day_before']),
  frequency: frequency.optional().default('once'),
  isCompleted: z.boolean({ error: 'isCompleted must be true or false' }).optional().default(false),
  // Its author when not said (or empty, as a form's select sends it for a personal project).
  assigneeId,
});

/** PATCH: the same fields, each optional; the project does not change. */
export const updateReminderSchema = z.object({
  title: title.optional(),
  description: description.optional(),
  dueDate: dueDate.optional(),
  reminderTimes: times.optional(),
  frequency: frequency.optional(),
  isCompleted: z.boolean({ error: 'isCompleted must be true or false' }).optional(),
  assigneeId,
});

export type CreateReminderInput = z.infer<typeof createReminderSchema>;
export type UpdateReminderInput = z.infer<typeof updateReminderSchema>;

/** Unpadded base64url of exactly `bytes` bytes (a Push API key, as `PushSubscription.toJSON()` gives it). */
const base64urlOf = (bytes: number, message: string) =>
  z.string({ error: message }).regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`), message);

/**
 * A browser's push subscription for one device (`PushSubscription.toJSON()`), sent when the user turns
 * push reminders on there: the push service's endpoint, and the keys the payload is encrypted to
 * (RFC 8291): the device's P-256 public key and its 16-byte authentication secret.
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .url({ protocol: /^https?$/, error: 'Endpoint must be an http(s) URL' })
    .max(2048, 'Endpoint must be at most 2048 characters'),
  keys: z.object(
    {
      p256dh: base64urlOf(65, 'keys.p256dh must be a P-256 public key (65 bytes, base64url)'),
      auth: base64urlOf(16, 'keys.auth must be 16 bytes, base64url'),
    },
    { error: 'keys must hold p256dh and auth' },
  ),
  /** What the device is, as Settings lists it ("Chrome on Android"); optional. */
  label: z.string({ error: 'Label must be text' }).trim().max(100, 'Label must be at most 100 characters').optional(),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** A device's push subscription, to turn it off (its endpoint is what names it). */
export const pushEndpointSchema = pushSubscriptionSchema.pick({ endpoint: true });

/** What Settings › Notifications reads: the server's VAPID public key (null: push is off here), and the devices. */
export interface PushState {
  publicKey: string | null;
  devices: { label: string; createdAt: string }[];
}

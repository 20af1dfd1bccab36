import { z } from 'zod';

/** Reminders (spec/core.md §3–§5, §9), shared by the web forms and the reminders service. */
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
export type ReminderTime = (typeof reminderTimes)[number];

const MINUTE = 60_000;
/** How long before the due time each reminder time fires. */
export const reminderTimeOffsets: Record<ReminderTime, { label: string; ms: number }> = {
  at_time: { label: 'At time of event', ms: 0 },
  '5_minutes_before': { label: '5 minutes before', ms: 5 * MINUTE },
  '15_minutes_before': { label: '15 minutes before', ms: 15 * MINUTE },
  '30_minutes_before': { label: '30 minutes before', ms: 30 * MINUTE },
  '1_hour_before': { label: '1 hour before', ms: 60 * MINUTE },
  '3_hours_before': { label: '3 hours before', ms: 180 * MINUTE },
  '6_hours_before': { label: '6 hours before', ms: 360 * MINUTE },
  '12_hours_before': { label: '12 hours before', ms: 720 * MINUTE },
  '1_day_before': { label: '1 day before', ms: 1440 * MINUTE },
  '2_days_before': { label: '2 days before', ms: 2880 * MINUTE },
  '1_week_before': { label: '1 week before', ms: 10080 * MINUTE },
};

/** GET /api/reminders/options/notification-times: the eleven times with their labels. */
export const notificationTimeOptions = reminderTimes.map((value) => ({
  value,
  label: reminderTimeOffsets[value].label,
}));

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

export const createReminderSchema = z.object({
  projectId: z.string({ error: 'Invalid project' }).min(1, 'Invalid project'),
  title,
  description: description.optional().default(null),
  dueDate,
  reminderTimes: times.optional().default(['1_day_before']),
  frequency: frequency.optional().default('once'),
  isCompleted: z.boolean({ error: 'isCompleted must be true or false' }).optional().default(false),
});

/** PATCH: the same fields, each optional; the project does not change. */
export const updateReminderSchema = z.object({
  title: title.optional(),
  description: description.optional(),
  dueDate: dueDate.optional(),
  reminderTimes: times.optional(),
  frequency: frequency.optional(),
  isCompleted: z.boolean({ error: 'isCompleted must be true or false' }).optional(),
});

export type CreateReminderInput = z.infer<typeof createReminderSchema>;
export type UpdateReminderInput = z.infer<typeof updateReminderSchema>;

export interface Reminder {
  id: string;
  userId: string;
  projectId: string;
  projectName: string;
  title: string;
  description: string | null;
  dueDate: string;
  reminderTimes: ReminderTime[];
  frequency: ReminderFrequency;
  isCompleted: boolean;
  emailsSent: Record<string, string>;
  lastSentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

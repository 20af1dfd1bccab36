/**
 * The eleven reminder times (spec/core.md §4, §7) with their labels and offsets: plain data, without
 * zod, so the web app's first load can carry the built-in list.
 */
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

import { calendarRoutes } from './calendar/routes.ts';
import { pushRoutes } from './push/routes.ts';
import { reminderRoutes } from './reminder/routes.ts';

/** Every route reminders answers, as declared beside its handler: what the gateway serves and documents. */
export const remindersRoutes = { ...calendarRoutes, ...pushRoutes, ...reminderRoutes };

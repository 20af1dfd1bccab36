/**
 * A production deployment under way opens a maintenance window on its project's monitors: no incident
 * opens inside it. Its success or failure ends it, and so does this much time without either (a
 * deployment whose end was never recorded must not hold alerts for good).
 */
export const MAINTENANCE_MAX_MINUTES = 60;

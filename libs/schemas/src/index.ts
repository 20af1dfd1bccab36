export * from './account.ts';
export * from './auth.ts';
export * from './projects.ts';
export * from './reminders.ts';

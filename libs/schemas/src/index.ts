export * from './account.ts';
export * from './admin.ts';
export * from './auth.ts';
export * from './billing.ts';
export * from './chat.ts';
export * from './ids.ts';
export * from './projects.ts';
export * from './reminders.ts';

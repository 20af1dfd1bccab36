export type { Batch, Handler } from '@shiplog/messaging';
export * from './command.ts';
export * from './config.ts';
export * from './http.ts';
export * from './internal-token.ts';
export * from './logger.ts';
export * from './migrations.ts';
export * from './service.ts';
export * from './validation.ts';

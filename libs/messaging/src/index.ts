export * from './bus.ts';
export * from './consumer.ts';
export * from './envelope.ts';
export type { Logger } from './logger.ts';
export * from './relay.ts';

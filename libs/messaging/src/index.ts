export * from './bus.ts';
export * from './consumer.ts';
export { lockConsumer, migrateConsumerTables } from './consumer-tables.ts';
export * from './envelope.ts';
export type { Logger } from './logger.ts';
export * from './parking.ts';
export * from './relay.ts';
export { inTransaction, isStorableText } from './sql.ts';

export * from './catalog.ts';
export * from './envelope.ts';
export * from './ids.ts';

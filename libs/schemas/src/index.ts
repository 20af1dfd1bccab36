export * from './auth.ts';
export * from './projects.ts';

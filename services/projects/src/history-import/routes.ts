import { importedActivitySchema, importedProjectSchema } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/**
 * Import from a Shiplog export: the gateway's import action reads the file and sends it here in parts
 * (to stay under the 1 MB body limit). Internal: not on the /api surface (answered in `api.ts`).
 */
export const historyImportRoutes = declareRoutes({
  'POST /imports/projects': {
    summary: 'The file’s projects as they stood, with their dates: the id each has here, and how many it added',
    access: 'user',
    internal: true,
    body: z.object({ projects: z.array(importedProjectSchema).max(200) }),
    answer: z.object({ ids: z.record(z.string(), z.string()), added: z.number() }),
  },
  'POST /imports/history': {
    summary: 'A part of the file’s timeline, its projects already imported',
    access: 'user',
    internal: true,
    body: z.object({ entries: z.array(importedActivitySchema).min(1).max(1000) }),
    answer: z.object({ imported: z.number() }),
  },
});

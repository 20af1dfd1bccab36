import { checkServiceEnv, serviceEnv } from '@shiplog/service-kit';
import type { z } from 'zod';

export const projectsEnv = serviceEnv.superRefine(checkServiceEnv);
export type ProjectsEnv = z.infer<typeof projectsEnv>;

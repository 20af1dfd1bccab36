import { runServiceProcess } from '@shiplog/service-kit';
import { projectsService } from './service.ts';

await runServiceProcess(projectsService);

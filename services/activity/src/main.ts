import { runServiceProcess } from '@shiplog/service-kit';
import { activityService } from './service.ts';

await runServiceProcess(activityService);

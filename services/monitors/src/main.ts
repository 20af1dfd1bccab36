import { runServiceProcess } from '@shiplog/service-kit';
import { monitorsService } from './service.ts';

await runServiceProcess(monitorsService);

import { runServiceProcess } from '@shiplog/service-kit';
import { identityService } from './service.ts';

await runServiceProcess(identityService);

import { runServiceProcess } from '@shiplog/service-kit';
import { integrationsService } from './service.ts';

await runServiceProcess(integrationsService);

import { runServiceProcess } from '@shiplog/service-kit';
import { billingService } from './service.ts';

await runServiceProcess(billingService);

import { runServiceProcess } from '@shiplog/service-kit';
import { remindersService } from './service.ts';

await runServiceProcess(remindersService);

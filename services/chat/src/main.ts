import { runServiceProcess } from '@shiplog/service-kit';
import { chatService } from './service.ts';

await runServiceProcess(chatService);

import { endWithSupervisor, stopOnSignals } from '@shiplog/service-kit';
import { startGateway } from './server.ts';

endWithSupervisor();
let gateway: Awaited<ReturnType<typeof startGateway>>;
try {
  gateway = await startGateway();
} catch (error) {
  process.stderr.write(`gateway: failed to start: ${(error as Error).message}\n`);
  process.exit(1);
}
stopOnSignals('gateway', () => gateway.stop());

import { endWithSupervisor } from '@shiplog/service-kit';
import { startGateway } from './server.ts';

endWithSupervisor();
let gateway: Awaited<ReturnType<typeof startGateway>>;
try {
  gateway = await startGateway();
} catch (error) {
  process.stderr.write(`gateway: failed to start: ${(error as Error).message}\n`);
  process.exit(1);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    gateway.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

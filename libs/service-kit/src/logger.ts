import { currentTraceIds } from '@shiplog/telemetry';
import pino from 'pino';

export type Logger = pino.Logger;
/** Where a process's log lines can go besides standard output and a file: a test harness's memory. */
export type LogDestination = pino.DestinationStream;

/**
 * JSON lines on standard output, or appended to the file `to` names (written as they come, so none is
 * lost at a stop), or handed to `to` (a test harness keeps them). A line written inside a traced
 * request or event names its trace and span (`trace_id`, `span_id`), so a log search leads to the
 * trace and back.
 */
export function createLogger(name: string, level: string, to?: string | LogDestination): Logger {
  return pino(
    {
      name,
      level,
      mixin: () => currentTraceIds() ?? {},
      redact: {
        paths: [
          'password',
          'passwordHash',
          '*.password',
          '*.passwordHash',
          'currentPassword',
          'newPassword',
          'headers.cookie',
        ],
        censor: '[redacted]',
      },
    },
    typeof to === 'string' ? pino.destination({ dest: to, append: true, sync: true }) : to,
  );
}

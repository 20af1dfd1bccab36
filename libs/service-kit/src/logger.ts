import { currentTraceIds } from '@shiplog/telemetry';
import pino from 'pino';

export type Logger = pino.Logger;

/**
 * JSON lines on standard output, or appended to `file` (written as they come, so none is lost at a
 * stop). A line written inside a traced request or event names its trace and span (`trace_id`,
 * `span_id`), so a log search leads to the trace and back.
 */
export function createLogger(name: string, level: string, file?: string): Logger {
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
    file ? pino.destination({ dest: file, append: true, sync: true }) : undefined,
  );
}

import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines on standard output, or appended to `file` (written as they come, so none is lost at a stop). */
export function createLogger(name: string, level: string, file?: string): Logger {
  return pino(
    {
      name,
      level,
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

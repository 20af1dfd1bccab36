import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(name: string, level: string): Logger {
  return pino({
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
  });
}

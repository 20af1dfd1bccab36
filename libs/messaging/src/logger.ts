/** The slice of pino the kit needs, so libraries below the service kit stay free of it. */
export interface Logger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

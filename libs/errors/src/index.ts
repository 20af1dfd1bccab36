/**
 * Errors carry their HTTP status and a stable code; one middleware (service-kit) renders them as the
 * fixed error body `{ message, code, fieldErrors? }`. Thrown anywhere: domain logic, stores, handlers.
 */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldErrors | undefined;

  constructor(status: number, code: string, message: string, fieldErrors?: FieldErrors) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

export class ValidationError extends AppError {
  constructor(fieldErrors: FieldErrors, message = firstMessage(fieldErrors) ?? 'Invalid input') {
    super(400, 'VALIDATION_FAILED', message, fieldErrors);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Not signed in', code = 'UNAUTHORIZED') {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Not allowed', code = 'FORBIDDEN') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found', code = 'NOT_FOUND') {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT') {
    super(409, code, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message = 'Too many requests, please try again later', code = 'RATE_LIMITED') {
    super(429, code, message);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, code = 'SERVICE_UNAVAILABLE') {
    super(503, code, message);
  }
}

function firstMessage(fieldErrors: FieldErrors): string | undefined {
  for (const messages of Object.values(fieldErrors)) if (messages[0]) return messages[0];
  return undefined;
}

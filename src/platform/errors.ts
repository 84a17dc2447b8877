/**
 * The one error hierarchy of the service. Every failure a client may see is an AppError with a
 * stable `code`; adapters (REST problem+json, MCP isError results) present it, and nothing matches
 * on message text. Anything that is not an AppError is an internal error and is never shown.
 */
export interface FieldViolation {
  path: string;
  message: string;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly title: string;
  readonly code: string;
  /** Machine-readable extras that are safe to show (never secrets, SQL or stack traces). */
  readonly details: Record<string, unknown>;
  /** What an agent should do next; MCP results carry it after the message. */
  readonly hint: string | undefined;

  constructor(
    code: string,
    message: string,
    options: { details?: Record<string, unknown>; hint?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
    this.hint = options.hint;
  }
}

export class ValidationError extends AppError {
  readonly status = 400;
  readonly title = 'Invalid request';
  readonly errors: FieldViolation[];
  constructor(errors: FieldViolation[], message?: string, code = 'validation_failed', hint?: string) {
    super(code, message ?? summarizeViolations(errors), { hint });
    this.errors = errors;
  }
}

export class UnauthorizedError extends AppError {
  readonly status = 401;
  readonly title = 'Authentication required';
}

export class ForbiddenError extends AppError {
  readonly status = 403;
  readonly title = 'Forbidden';
}

export class NotFoundError extends AppError {
  readonly status = 404;
  readonly title = 'Not found';
}

export class ConflictError extends AppError {
  readonly status = 409;
  readonly title = 'Conflict';
}

export class PayloadTooLargeError extends AppError {
  readonly status = 413;
  readonly title = 'Payload too large';
}

export class NotAcceptableError extends AppError {
  readonly status = 406;
  readonly title = 'Not acceptable';
}

export class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
  readonly title = 'Unsupported media type';
}

export class RateLimitedError extends AppError {
  readonly status = 429;
  readonly title = 'Too many requests';
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message = 'Rate limit exceeded') {
    super('rate_limited', message, { details: { retry_after_seconds: retryAfterSeconds } });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class ServiceUnavailableError extends AppError {
  readonly status = 503;
  readonly title = 'Service unavailable';
}

/**
 * The database connection was lost under a request (a failover, a restart, `pg_terminate_backend`).
 * Read-only requests are retried once on a fresh connection before this reaches a client; a write
 * is not (it may or may not have committed), so the client decides: 503 with Retry-After on REST,
 * an isError result with this code on MCP.
 */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  readonly retryAfterSeconds: number;
  constructor(options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    const retryAfterSeconds = options.retryAfterSeconds ?? 2;
    super('database_unavailable', 'The connection to the database was lost while handling this request.', {
      cause: options.cause,
      details: { retry_after_seconds: retryAfterSeconds },
      hint: `Retry in ${retryAfterSeconds} seconds. If it was a write, read first to see whether it took effect.`,
    });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * A start that cannot go on for a reason the operator can fix (the port is taken, the store is
 * unreachable, DATA_DIR is unusable or held by another process): the CLI prints the message as one
 * line and exits with `exitCode` (sysexits.h values).
 */
export class StartupError extends Error {
  constructor(
    readonly code:
      | 'address_in_use'
      | 'listen_forbidden'
      | 'address_unavailable'
      | 'store_unreachable'
      | 'data_dir_unusable'
      | 'data_dir_in_use',
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/** Configuration that cannot run: the process prints the message (one line) and exits. */
export class ConfigError extends Error {
  readonly code = 'config_invalid';
  constructor(variable: string, value: string | undefined, allowed: string) {
    const shown = value === undefined ? 'unset' : JSON.stringify(redactValue(variable, value));
    super(`${variable}=${shown} is not allowed: ${allowed}`);
    this.name = 'ConfigError';
  }
}

function redactValue(variable: string, value: string): string {
  return /TOKEN|KEY|SECRET|PASSWORD/i.test(variable) ? `<${value.length} characters>` : value;
}

function summarizeViolations(errors: FieldViolation[]): string {
  if (errors.length === 0) return 'The request is invalid.';
  const first = errors[0]!;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${first.path ? `${first.path}: ` : ''}${first.message}${more}`;
}

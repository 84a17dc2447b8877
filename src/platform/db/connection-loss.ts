import { DatabaseUnavailableError } from '../errors.js';

/**
 * SQLSTATEs that mean the session is gone, not that the statement was wrong: 57P01 admin_shutdown
 * (pg_terminate_backend, a smart/fast shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up, in recovery), and class 08 (connection exceptions).
 */
const LOST_SQLSTATE = /^(57P0[123]|08[0-9A-Z]{3})$/;

/** Socket-level failures node reports when the server end went away or cannot be reached. */
const LOST_ERRNO = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH']);

/**
 * Whether a driver error means the connection was lost (so the same request on a fresh connection
 * may succeed). node-postgres reports a socket that ended under a query with an Error that has no
 * code and one of two fixed messages; those are the driver's own constants, not user-facing text.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return LOST_SQLSTATE.test(code) || LOST_ERRNO.has(code);
  return (
    typeof message === 'string' &&
    (message === 'Connection terminated unexpectedly' ||
      message === 'Connection terminated' ||
      message === 'Client has encountered a connection error and is not queryable' ||
      message.startsWith('Connection terminated due to connection timeout'))
  );
}

/** A connection-loss error as the AppError clients see; anything else unchanged. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isConnectionLoss(error)) return error;
  return new DatabaseUnavailableError({ cause: error });
}

/**
 * Runs a read-only request's work and, when the database connection was lost under it, runs it
 * once more (the store has by then replaced its connections). A second loss is answered as
 * DatabaseUnavailableError. Only for work that writes nothing: a write might have committed.
 */
export async function retryReadOnLoss<T>(work: () => Promise<T>, canRetry: () => boolean = () => true): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError) || !canRetry()) throw error;
    return work();
  }
}

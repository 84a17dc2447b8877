import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Structured JSON logs. Redaction is by path and covers every place a credential can sit in what
 * we log (headers, bodies, config); callers must still never pass secrets as message text.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'authorization',
  'token',
  '*.token',
  'secret',
  '*.secret',
  '*.secrets',
  'secrets',
  'password',
  '*.password',
  'client_secret',
  '*.client_secret',
  'refresh_token',
  '*.refresh_token',
  'config.SERVICE_STATIC_TOKEN',
  'config.SECRETS_KEY',
];

/**
 * What a log line keeps of an error: its class, message, a SQLSTATE or system code, and the one
 * frame of our own code it came from. Not the stack, and none of the other fields a driver error
 * carries (a PostgreSQL error's `detail`, `where` and `internalQuery` can hold row values and SQL
 * text): logs are read by more people than the code is.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) {
    // Callers that already reduced an error pass `{ message, code? }`.
    if (typeof error !== 'object' || error === null) return { message: String(error) };
    const { message, code } = error as { message?: unknown; code?: unknown };
    return {
      ...(typeof message === 'string' ? { message } : {}),
      ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    };
  }
  const out: Record<string, unknown> = { type: error.constructor?.name ?? error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  const origin = ownFrame(error.stack);
  if (origin) out.origin = origin;
  return out;
}

/** The first stack frame in this service's own files (src/ or dist/, not a dependency), as file:line. */
function ownFrame(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  for (const line of stack.split('\n')) {
    const match = /\(?((?:file:\/\/)?[^()\s]+):(\d+):\d+\)?\s*$/.exec(line);
    if (
      !match ||
      !line.trimStart().startsWith('at ') ||
      match[1]!.includes('node_modules') ||
      !/\/(src|dist)\//.test(match[1]!)
    )
      continue;
    const file = match[1]!.replace(/^file:\/\//, '');
    return `${file.slice(file.search(/\/(src|dist)\//) + 1)}:${match[2]}`;
  }
  return undefined;
}

/** The logger every layer receives (pino's, as Fastify types it). */
export type Logger = FastifyBaseLogger;

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  return pino(
    {
      level,
      base: { service: 'context-hub' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: serializeError },
    },
    options.destination,
  );
}

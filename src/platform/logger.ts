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
      serializers: { err: pino.stdSerializers.err },
    },
    options.destination,
  );
}

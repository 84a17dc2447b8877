import type { Clock } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import type { McpRegistry } from './kit/registry.js';

/**
 * What a server instance is built from; apart from server.ts so that the prompt handlers, which
 * server.ts installs, can name it without importing the server back.
 */

export interface McpServerDeps {
  registry: McpRegistry;
  clock: Clock;
  log: Logger;
  version: string;
  envelopeInlineBytes: number;
  /** Finished answers of tools with an answerToken kept by the fast path (0: none). */
  answerCacheEntries?: number;
}

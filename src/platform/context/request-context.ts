import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';

/** Built by an adapter (REST route, MCP tool, job) and handed to exactly one service call. */
export interface RequestContext {
  actor: Actor;
  requestId: string;
  clock: Clock;
  log: Logger;
}

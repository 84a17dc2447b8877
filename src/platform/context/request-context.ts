import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';

/** How a write reached the service: recorded on every Skill and Knowledge version. */
export type WriteChannel = 'mcp' | 'rest' | 'console' | 'import';
export const WRITE_CHANNELS: readonly WriteChannel[] = ['mcp', 'rest', 'console', 'import'];

/** The header the console sends on its REST calls, so its writes are recorded as `via: console`. */
export const CLIENT_HEADER = 'x-context-hub-client';

/** Built by an adapter (REST route, MCP tool, job) and handed to exactly one service call. */
export interface RequestContext {
  actor: Actor;
  requestId: string;
  clock: Clock;
  log: Logger;
  /** The channel of the call; absent for jobs and scripts, which write as `rest` unless they say otherwise. */
  via?: WriteChannel;
  /** The MCP client's name and version (from its initialize clientInfo or per-request envelope). */
  client?: { name: string; version: string };
}

import type { Logger } from '../../platform/logger.js';
import type { SessionStore } from '../session-store.js';
import type { LiveSession } from './live-sessions.js';

export interface RehydrationDeps {
  store: SessionStore;
  log: Logger;
  /** Opens a fresh transport and server under the stored session's id and adds it to memory. */
  open(id: string, subject: string, protocolVersion: string): Promise<LiveSession>;
  /** Drops a session that failed to come back from memory (the stored one stays). */
  forget(id: string): Promise<void>;
}

/**
 * Brings a stored session back into this process (another replica started it, or this process
 * restarted): replays the stored `initialize` handshake into a fresh transport that carries the
 * same session id, with the session's subscriptions. Undefined when no such session is stored or
 * the replay fails.
 */
export async function rehydrateSession(deps: RehydrationDeps, id: string): Promise<LiveSession | undefined> {
  const stored = await deps.store.find(id);
  if (!stored) return undefined;
  const session = await deps.open(id, stored.subject ?? '', stored.protocol_version);
  for (const uri of await deps.store.subscriptions(id)) session.subscriptions.add(uri);
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await session.transport.handleRequest(
    new Request('http://internal/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: `rehydrate-${id}`,
        method: 'initialize',
        params: { ...stored.initialize_params, protocolVersion: stored.protocol_version },
      }),
    }),
  );
  await init.text();
  const initialized = await session.transport.handleRequest(
    new Request('http://internal/mcp', {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': stored.protocol_version },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  await initialized.text();
  if (!init.ok || !initialized.ok) {
    deps.log.warn({ session: id, status: init.status }, 'session rehydration failed');
    await deps.forget(id);
    return undefined;
  }
  deps.log.debug({ session: id }, 'session rehydrated');
  return session;
}

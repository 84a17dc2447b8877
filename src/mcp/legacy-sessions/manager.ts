import { randomUUID } from 'node:crypto';
import {
  type AuthInfo,
  type ClientCapabilities,
  type McpServer,
  type ServerEvent,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Clock } from '../../platform/clock.js';
import type { ChangeFeed } from '../../platform/events/change-feed.js';
import type { Logger } from '../../platform/logger.js';
import { notAcceptable } from '../accept.js';
import { sendChange } from '../change-notifications.js';
import { answerInvalidParamsAsSuch } from '../invalid-params.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol-versions.js';
import type { CallerInfo } from '../server.js';
import type { SessionStore } from '../session-store.js';
import { type LiveSession, LiveSessions } from './live-sessions.js';
import { rehydrateSession } from './rehydration.js';
import { primingEvent, whileStreaming } from './streams.js';

export { SESSION_EVICT_IDLE_MS } from './live-sessions.js';

/** A stored session unused this long is deleted (with its events); its client re-initializes on 404. */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function isInitialize(body: unknown): body is { method: 'initialize'; params: Record<string, unknown> } {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    (body as { method?: unknown }).method === 'initialize'
  );
}

/**
 * 2025-era sessions on the SDK's sessionful Streamable HTTP transport. Session facts and GET-stream
 * events live in the database: a replica that does not hold a session in memory (another replica
 * started it, or this process restarted) rehydrates it (rehydration.ts), then serves the request.
 */
export class LegacySessionManager {
  private readonly live: LiveSessions;
  private readonly rehydrating = new Map<string, Promise<LiveSession | undefined>>();
  private unsubscribeFeed: (() => void) | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      store: SessionStore;
      feed: ChangeFeed;
      createServer: () => McpServer;
      clock: Clock;
      log: Logger;
      maxRequestBodySize: number;
      /** How many sessions this process keeps in memory (LiveSessions). */
      maxLiveSessions: number;
    },
  ) {
    this.live = new LiveSessions(deps);
  }

  start(): void {
    this.unsubscribeFeed = this.deps.feed.subscribe((event) => this.onChange(event));
    this.sweepTimer = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_INTERVAL_MS).unref();
  }

  /** Deletes stored sessions idle for SESSION_IDLE_MS and drops them from memory. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - SESSION_IDLE_MS);
    const expired = await this.deps.store.expireIdle(cutoff);
    for (const id of expired) await this.forget(id, false);
    return expired.length;
  }

  /**
   * For the session fast path: when this process holds the caller's live session `id`, what its
   * client declared at initialize, its activity recorded (the fast path answers that request
   * itself); else undefined.
   */
  useLiveSession(id: string, subject: string): { capabilities: ClientCapabilities | undefined } | undefined {
    const session = this.live.useLiveSession(id, subject);
    // Deprecated accessor, still the initialize-scoped value on a 2025-era session.
    return session ? { capabilities: session.server.server.getClientCapabilities() } : undefined;
  }

  get size(): number {
    return this.live.size;
  }

  /** Whether this process holds session `id` in memory (without counting as a use). */
  has(id: string): boolean {
    return this.live.has(id);
  }

  async handle(request: Request, parsedBody: unknown, caller: CallerInfo, authInfo: AuthInfo): Promise<Response> {
    const unreadable = notAcceptable(request);
    if (unreadable) return unreadable;
    const sessionId = request.headers.get('mcp-session-id');
    if (!sessionId) {
      if (request.method === 'POST' && isInitialize(parsedBody))
        return this.initialize(request, parsedBody, caller, authInfo);
      if (Array.isArray(parsedBody))
        return jsonRpcError(
          400,
          -32600,
          'Invalid Request: a JSON-RPC batch cannot open a session; send initialize on its own',
        );
      if (request.method === 'POST')
        return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required (send initialize first)');
      return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    const session = this.live.get(sessionId) ?? (await this.rehydrate(sessionId));
    // Another subject's session id is answered exactly like an unknown one.
    if (!session || session.subject !== caller.actor.subject) return jsonRpcError(404, -32001, 'Session not found');
    // A session has one GET stream; a new GET (often a reconnect whose old socket the server has not
    // yet seen close) supersedes the old one instead of being refused with 409.
    if (request.method === 'GET') session.transport.closeStandaloneSSEStream();
    this.live.markUsed(session);
    session.busy++;
    let response: Response;
    let priming: Uint8Array | undefined;
    try {
      response = await session.transport.handleRequest(request, { parsedBody, authInfo });
      if (request.method === 'GET') priming = await primingEvent(this.deps.store, session, request, response);
    } finally {
      session.busy--;
    }
    if (request.method === 'DELETE' && response.ok) await this.forget(sessionId, true);
    else if (request.method === 'POST') this.live.touch(session);
    return whileStreaming(session, response, priming);
  }

  private async initialize(
    request: Request,
    body: { params: Record<string, unknown> },
    caller: CallerInfo,
    authInfo: AuthInfo,
  ): Promise<Response> {
    const id = randomUUID();
    const requested =
      typeof body.params?.protocolVersion === 'string' ? body.params.protocolVersion : LEGACY_PROTOCOL_VERSIONS[0]!;
    const negotiated = LEGACY_PROTOCOL_VERSIONS.includes(requested) ? requested : LEGACY_PROTOCOL_VERSIONS[0]!;
    const session = await this.open(id, caller.actor.subject, negotiated);
    const response = await session.transport.handleRequest(request, { parsedBody: body, authInfo });
    if (session.transport.sessionId === id) {
      await this.deps.store.save(
        {
          id,
          protocol_version: negotiated,
          initialize_params: body.params ?? {},
          subject: caller.actor.subject,
        },
        this.deps.clock.now(),
      );
    } else {
      await this.forget(id, false);
    }
    return response;
  }

  private async open(id: string, subject: string, protocolVersion: string): Promise<LiveSession> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: this.deps.store.eventStore(id),
      maxRequestBodySize: this.deps.maxRequestBodySize,
    });
    const server = this.deps.createServer();
    const session: LiveSession = {
      id,
      subject,
      protocolVersion,
      transport,
      server,
      subscriptions: new Set(),
      usedAt: this.deps.clock.now().getTime(),
      busy: 0,
    };
    server.server.setRequestHandler('resources/subscribe', async (req) => {
      session.subscriptions.add(req.params.uri);
      await this.deps.store.subscribe(id, req.params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', async (req) => {
      session.subscriptions.delete(req.params.uri);
      await this.deps.store.unsubscribe(id, req.params.uri);
      return {};
    });
    answerInvalidParamsAsSuch(server);
    transport.onclose = () => this.live.delete(id, session);
    await server.connect(transport);
    this.live.add(session);
    return session;
  }

  private rehydrate(id: string): Promise<LiveSession | undefined> {
    let pending = this.rehydrating.get(id);
    if (!pending) {
      pending = rehydrateSession(
        {
          store: this.deps.store,
          log: this.deps.log,
          open: (sessionId, subject, version) => this.open(sessionId, subject, version),
          forget: (sessionId) => this.forget(sessionId, false),
        },
        id,
      ).finally(() => this.rehydrating.delete(id));
      this.rehydrating.set(id, pending);
    }
    return pending;
  }

  private async forget(id: string, deleteStored: boolean): Promise<void> {
    const session = this.live.get(id);
    this.live.delete(id);
    if (session) await session.server.close().catch(() => undefined);
    if (deleteStored) await this.deps.store.delete(id);
  }

  private onChange(event: ServerEvent): void {
    for (const session of this.live.values()) {
      void sendChange(session.server, event, (uri) => session.subscriptions.has(uri))?.catch((err: unknown) =>
        this.deps.log.debug({ err, session: session.id }, 'session notification failed'),
      );
    }
  }

  /** Closes live transports; stored sessions stay for resumption after a restart. */
  async close(): Promise<void> {
    this.unsubscribeFeed?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const session of [...this.live.values()]) await session.server.close().catch(() => undefined);
    this.live.clear();
  }
}

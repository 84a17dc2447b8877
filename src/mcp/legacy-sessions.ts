import { randomUUID } from 'node:crypto';
import {
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
  type McpServer,
  type ServerEvent,
} from '@modelcontextprotocol/server';
import type { Clock } from '../platform/clock.js';
import type { ChangeFeed } from '../platform/events/change-feed.js';
import type { Logger } from '../platform/logger.js';
import { notAcceptable } from './accept.js';
import { answerInvalidParamsAsSuch } from './invalid-params.js';
import type { CallerInfo } from './server.js';
import { STANDALONE_STREAM_ID, type SessionStore } from './session-store.js';

interface LiveSession {
  id: string;
  subject: string;
  /** When this process last recorded the session's activity in the store (epoch ms). */
  touchedAt?: number;
  /** When a request last used the session here (epoch ms): what eviction from memory goes by. */
  usedAt: number;
  /** Requests the transport is handling and response streams still open (GET or a POST's SSE). */
  busy: number;
  protocolVersion: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  subscriptions: Set<string>;
}

export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** A stored session unused this long is deleted (with its events); its client re-initializes on 404. */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 15 * 60 * 1000;
const TOUCH_INTERVAL_MS = 60 * 1000;
/**
 * Over the live-session limit, a session unused this long, with no request in progress and no
 * stream open, leaves memory (it stays stored and rehydrates on its next request). Shorter would
 * let a client's GET stream drop and reconnect across an eviction, and miss what was sent between.
 */
export const SESSION_EVICT_IDLE_MS = 5 * 60 * 1000;

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
 * started it, or this process restarted) rehydrates it by replaying the stored `initialize`
 * handshake into a fresh transport that carries the same session id, then serves the request.
 */
export class LegacySessionManager {
  private readonly live = new Map<string, LiveSession>();
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
      /**
       * How many sessions this process keeps in memory (~150 KB each: an SDK server and its
       * transport). Clients that never send DELETE would otherwise hold theirs for a day.
       */
      maxLiveSessions: number;
    },
  ) {}

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
   * Records activity for the idle sweep. A database write per request cost about as much as the
   * call itself; sessions idle out after a day, so one write a minute per session and process is plenty.
   */
  private touch(session: LiveSession): void {
    const now = this.deps.clock.now();
    if (session.touchedAt !== undefined && now.getTime() - session.touchedAt < TOUCH_INTERVAL_MS) return;
    session.touchedAt = now.getTime();
    void this.deps.store.touch(session.id, now).catch(() => undefined);
  }

  /**
   * For the session fast path: whether this process holds the caller's live session `id`, and
   * records its activity when it does (the fast path answers that request itself).
   */
  useLiveSession(id: string, subject: string): boolean {
    const session = this.live.get(id);
    if (!session || session.subject !== subject) return false;
    this.markUsed(session);
    this.touch(session);
    return true;
  }

  /** Moves the session to the recent end of `live`, whose order is then least recently used first. */
  private markUsed(session: LiveSession): void {
    session.usedAt = this.deps.clock.now().getTime();
    this.live.delete(session.id);
    this.live.set(session.id, session);
  }

  /**
   * Over the limit, drops least recently used sessions from memory while they are idle: unused for
   * SESSION_EVICT_IDLE_MS, nothing in progress, no stream open. Never the stored session; when
   * every session over the limit is in use, the limit is exceeded rather than a client broken.
   */
  private evictIdle(): void {
    if (this.live.size <= this.deps.maxLiveSessions) return;
    const cutoff = this.deps.clock.now().getTime() - SESSION_EVICT_IDLE_MS;
    // Deleting the entry being visited is safe while iterating a Map.
    for (const session of this.live.values()) {
      if (this.live.size <= this.deps.maxLiveSessions) break;
      // In least-recently-used order: once one is recent, the rest are too.
      if (session.usedAt > cutoff) break;
      if (session.busy > 0) continue;
      this.live.delete(session.id);
      void session.server.close().catch(() => undefined);
    }
  }

  /**
   * Counts an SSE response as busy until its stream ends or the client goes away, sending `first`
   * (the GET stream's priming event) ahead of what the transport writes.
   */
  private whileStreaming(session: LiveSession, response: Response, first?: Uint8Array): Response {
    if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
      return response;
    session.busy++;
    let open = true;
    const ended = (): void => {
      if (open) session.busy--;
      open = false;
    };
    const source = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        if (first) controller.enqueue(first);
      },
      pull: async (controller) => {
        try {
          const { done, value } = await source.read();
          if (done) {
            ended();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          ended();
          controller.error(error);
        }
      },
      cancel: (reason) => {
        ended();
        return source.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
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
    this.markUsed(session);
    session.busy++;
    let response: Response;
    let priming: Uint8Array | undefined;
    try {
      response = await session.transport.handleRequest(request, { parsedBody, authInfo });
      if (request.method === 'GET') priming = await this.primingEvent(session, request, response);
    } finally {
      session.busy--;
    }
    if (request.method === 'DELETE' && response.ok) await this.forget(sessionId, true);
    else if (request.method === 'POST') this.touch(session);
    return this.whileStreaming(session, response, priming);
  }

  /**
   * The priming event a fresh GET stream starts with. The SDK primes POST streams but not the
   * standalone GET stream. Without an event id a client
   * that disconnects before any notification arrives has nothing to resume from, and what was sent
   * meanwhile is lost to it. So a fresh GET stream starts with a stored, empty priming event
   * (clients of 2025-11-25 and later accept empty data).
   */
  private async primingEvent(
    session: LiveSession,
    request: Request,
    response: Response,
  ): Promise<Uint8Array | undefined> {
    if (response.status !== 200 || !response.body || request.headers.get('last-event-id')) return undefined;
    if (session.protocolVersion < '2025-11-25') return undefined;
    const eventId = await this.deps.store.eventStore(session.id).storeEvent(STANDALONE_STREAM_ID, {} as JSONRPCMessage);
    return new TextEncoder().encode(`id: ${eventId}\ndata: \n\n`);
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
    transport.onclose = () => {
      if (this.live.get(id) === session) this.live.delete(id);
    };
    await server.connect(transport);
    this.live.set(id, session);
    this.evictIdle();
    return session;
  }

  private rehydrate(id: string): Promise<LiveSession | undefined> {
    let pending = this.rehydrating.get(id);
    if (!pending) {
      pending = this.doRehydrate(id).finally(() => this.rehydrating.delete(id));
      this.rehydrating.set(id, pending);
    }
    return pending;
  }

  private async doRehydrate(id: string): Promise<LiveSession | undefined> {
    const stored = await this.deps.store.find(id);
    if (!stored) return undefined;
    const session = await this.open(id, stored.subject ?? '', stored.protocol_version);
    for (const uri of await this.deps.store.subscriptions(id)) session.subscriptions.add(uri);
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
      this.deps.log.warn({ session: id, status: init.status }, 'session rehydration failed');
      await this.forget(id, false);
      return undefined;
    }
    this.deps.log.debug({ session: id }, 'session rehydrated');
    return session;
  }

  private async forget(id: string, deleteStored: boolean): Promise<void> {
    const session = this.live.get(id);
    this.live.delete(id);
    if (session) await session.server.close().catch(() => undefined);
    if (deleteStored) await this.deps.store.delete(id);
  }

  private onChange(event: ServerEvent): void {
    for (const session of this.live.values()) {
      const send = (): Promise<void> | undefined => {
        switch (event.kind) {
          case 'resource_updated':
            return session.subscriptions.has(event.uri)
              ? session.server.server.sendResourceUpdated({ uri: event.uri })
              : undefined;
          case 'tools_list_changed':
            return session.server.server.sendToolListChanged();
          case 'resources_list_changed':
            return session.server.server.sendResourceListChanged();
          case 'prompts_list_changed':
            return session.server.server.sendPromptListChanged();
        }
      };
      void send()?.catch((err: unknown) =>
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

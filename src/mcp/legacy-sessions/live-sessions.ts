import type { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Clock } from '../../platform/clock.js';
import type { SessionStore } from '../session-store.js';

export interface LiveSession {
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

const TOUCH_INTERVAL_MS = 60 * 1000;
/**
 * Over the live-session limit, a session unused this long, with no request in progress and no
 * stream open, leaves memory (it stays stored and rehydrates on its next request). Shorter would
 * let a client's GET stream drop and reconnect across an eviction, and miss what was sent between.
 */
export const SESSION_EVICT_IDLE_MS = 5 * 60 * 1000;

/**
 * The sessions this process holds in memory, least recently used first, bounded by evicting idle
 * ones (a stored session outlives its eviction and rehydrates on its next request).
 */
export class LiveSessions {
  private readonly live = new Map<string, LiveSession>();

  constructor(
    private readonly deps: {
      store: SessionStore;
      clock: Clock;
      /**
       * How many sessions this process keeps in memory (each holds an SDK server and its
       * transport). Clients that never send DELETE would otherwise hold theirs for a day.
       */
      maxLiveSessions: number;
    },
  ) {}

  get size(): number {
    return this.live.size;
  }

  get(id: string): LiveSession | undefined {
    return this.live.get(id);
  }

  /** Whether this process holds session `id` in memory (without counting as a use). */
  has(id: string): boolean {
    return this.live.has(id);
  }

  values(): IterableIterator<LiveSession> {
    return this.live.values();
  }

  /** Adds a session just opened, then evicts idle ones over the limit. */
  add(session: LiveSession): void {
    this.live.set(session.id, session);
    this.evictIdle();
  }

  /** Drops `id` from memory, only if it is still `session` when one is given. */
  delete(id: string, session?: LiveSession): void {
    if (session === undefined || this.live.get(id) === session) this.live.delete(id);
  }

  clear(): void {
    this.live.clear();
  }

  /**
   * Records activity for the idle sweep. A database write per request cost about as much as the
   * call itself; sessions idle out after a day, so one write a minute per session and process is plenty.
   */
  touch(session: LiveSession): void {
    const now = this.deps.clock.now();
    if (session.touchedAt !== undefined && now.getTime() - session.touchedAt < TOUCH_INTERVAL_MS) return;
    session.touchedAt = now.getTime();
    void this.deps.store.touch(session.id, now).catch(() => undefined);
  }

  /**
   * For the session fast path: the caller's live session `id` when this process holds it, its
   * activity recorded (the fast path answers that request itself); else undefined.
   */
  useLiveSession(id: string, subject: string): LiveSession | undefined {
    const session = this.live.get(id);
    if (!session || session.subject !== subject) return undefined;
    this.markUsed(session);
    this.touch(session);
    return session;
  }

  /** Moves the session to the recent end of `live`, whose order is then least recently used first. */
  markUsed(session: LiveSession): void {
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
}

import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { Database, SqlExecutor } from '../db/database.js';
import type { Logger } from '../logger.js';

export const CHANGE_CHANNEL = 'context_hub_changes';

/**
 * Changes every replica must see (a new insight, a run's status, a list change) travel by
 * PostgreSQL LISTEN/NOTIFY (PGlite has it in-process). It implements the SDK's ServerEventBus, so
 * 2026-07-28 `subscriptions/listen` streams and 2025-era session GET streams read the same feed.
 */
export class ChangeFeed implements ServerEventBus {
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  private unlisten: (() => Promise<void>) | undefined;
  private readonly channel: string;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {
    this.channel = db.namespace ? `${CHANGE_CHANNEL}_${db.namespace}` : CHANGE_CHANNEL;
  }

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(this.channel, (payload) => {
      let event: ServerEvent;
      try {
        event = JSON.parse(payload) as ServerEvent;
      } catch {
        return;
      }
      this.deliver(event);
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /** Publishes to every replica (including this one, through the LISTEN echo). */
  publish(event: ServerEvent): void {
    void this.db
      .notify(this.channel, JSON.stringify(event))
      .catch((err: unknown) => this.log.warn({ err }, 'change notify failed'));
  }

  /**
   * Publishes from inside a transaction: PostgreSQL delivers the notification when `tx` commits,
   * and not at all when it rolls back, so no replica hears of a change before it can read it (or of
   * one that never happened). Equal events of one transaction are delivered once.
   */
  async publishIn(tx: SqlExecutor, event: ServerEvent): Promise<void> {
    await tx.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(event)]);
  }

  async resourceUpdated(uri: string): Promise<void> {
    await this.db.notify(this.channel, JSON.stringify({ kind: 'resource_updated', uri } satisfies ServerEvent));
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private deliver(event: ServerEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.log.warn({ err }, 'change listener failed');
      }
    }
  }
}

import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import type { Database } from '../platform/db/database.js';

export const STANDALONE_STREAM_ID = '_GET_stream';

export interface StoredSession {
  id: string;
  protocol_version: string;
  initialize_params: Record<string, unknown>;
  subject: string | null;
}

/** SQL for MCP session state; any replica reads it to serve a session it did not start. */
export class SessionStore {
  constructor(private readonly db: Database) {}

  async save(session: StoredSession, now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO mcp_sessions (id, protocol_version, initialize_params, subject, created_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`,
      [session.id, session.protocol_version, JSON.stringify(session.initialize_params), session.subject, now],
    );
  }

  async touch(id: string, now: Date): Promise<void> {
    await this.db.query('UPDATE mcp_sessions SET last_seen_at = $2 WHERE id = $1', [id, now]);
  }

  async find(id: string): Promise<StoredSession | undefined> {
    return (
      await this.db.query<StoredSession>(
        'SELECT id, protocol_version, initialize_params, subject FROM mcp_sessions WHERE id = $1',
        [id],
      )
    )[0];
  }

  async delete(id: string): Promise<void> {
    await this.db.query('DELETE FROM mcp_sessions WHERE id = $1', [id]);
  }

  async subscriptions(id: string): Promise<string[]> {
    return (
      await this.db.query<{ uri: string }>('SELECT uri FROM mcp_session_subscriptions WHERE session_id = $1', [id])
    ).map((r) => r.uri);
  }

  async subscribe(id: string, uri: string): Promise<void> {
    await this.db.query(
      'INSERT INTO mcp_session_subscriptions (session_id, uri) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [id, uri],
    );
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    await this.db.query('DELETE FROM mcp_session_subscriptions WHERE session_id = $1 AND uri = $2', [id, uri]);
  }

  async expireIdle(olderThan: Date): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>('DELETE FROM mcp_sessions WHERE last_seen_at < $1 RETURNING id', [
      olderThan,
    ]);
    return rows.map((r) => r.id);
  }

  eventStore(sessionId: string): EventStore {
    return new SessionEventStore(this.db, sessionId);
  }
}

/**
 * Resumability for one session. Events of the standalone GET stream go to the database (so a
 * reconnect to another replica or after a restart replays them); events of POST response streams
 * live in memory only, which the protocol allows (resuming a stream is optional for a server).
 * Event ids: `g<seq>` (database) or `p<n>:<stream>`.
 */
class SessionEventStore implements EventStore {
  private readonly memory: { id: string; streamId: StreamId; message: JSONRPCMessage }[] = [];
  private counter = 0;

  constructor(
    private readonly db: Database,
    private readonly sessionId: string,
  ) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    if (streamId === STANDALONE_STREAM_ID) {
      const rows = await this.db.query<{ seq: number }>(
        'INSERT INTO mcp_stream_events (session_id, stream_id, message) VALUES ($1, $2, $3) RETURNING seq',
        [this.sessionId, streamId, JSON.stringify(message)],
      );
      return `g${rows[0]!.seq}`;
    }
    const id = `p${++this.counter}`;
    this.memory.push({ id, streamId, message });
    if (this.memory.length > 1000) this.memory.splice(0, this.memory.length - 1000);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    if (/^g\d+$/.test(eventId)) {
      const rows = await this.db.query<{ stream_id: string }>(
        'SELECT stream_id FROM mcp_stream_events WHERE session_id = $1 AND seq = $2',
        [this.sessionId, Number(eventId.slice(1))],
      );
      return rows[0]?.stream_id;
    }
    return this.memory.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    if (/^g\d+$/.test(lastEventId)) {
      const rows = await this.db.query<{ seq: number; message: JSONRPCMessage }>(
        'SELECT seq, message FROM mcp_stream_events WHERE session_id = $1 AND seq > $2 ORDER BY seq',
        [this.sessionId, Number(lastEventId.slice(1))],
      );
      for (const row of rows) {
        // The priming event is an empty object: it marks a position, it is not a message.
        if (Object.keys(row.message).length > 0) await send(`g${row.seq}`, row.message);
      }
      return STANDALONE_STREAM_ID;
    }
    const index = this.memory.findIndex((e) => e.id === lastEventId);
    const streamId = this.memory[index]?.streamId ?? STANDALONE_STREAM_ID;
    for (const event of this.memory.slice(index + 1)) {
      if (event.streamId === streamId && Object.keys(event.message).length > 0) await send(event.id, event.message);
    }
    return streamId;
  }
}

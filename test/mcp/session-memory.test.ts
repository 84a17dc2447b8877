import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { SESSION_EVICT_IDLE_MS } from '../../src/mcp/legacy-sessions/manager.js';
import { EventStreamReader } from '../support/event-stream.js';
import { openRawSession, rawMcp } from '../support/raw-mcp.js';
import { startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const LIST = { jsonrpc: '2.0', id: 5, method: 'tools/list' };

/**
 * Clients that never send DELETE leave their sessions behind (~150 KB of SDK server each). Over
 * MCP_LIVE_SESSIONS a process drops idle ones from memory; they stay stored and come back on use.
 */
describe.each(STORES)('live 2025-era sessions in memory are bounded [%s]', (store) => {
  const clock = new ManualClock('2026-11-25T08:00:00Z');
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(store, { env: { MCP_LIVE_SESSIONS: '3' }, clock });
  });
  afterAll(async () => service?.close());

  it('keeps sessions in use, drops idle ones over the limit, and a dropped one rehydrates on its next request', async () => {
    const sessions: Record<string, string>[] = [];
    for (let i = 0; i < 5; i++) sessions.push(await openRawSession(service.url, '2025-11-25'));
    // All five were used just now: over the limit rather than a client cut off.
    expect(service.app.mcpSessions.size).toBe(5);

    // Session 0 holds its GET stream open, then 1-3 are used, so 0 is the least recently used;
    // session 4 is used again after the idle period.
    const stream = await EventStreamReader.open(`${service.url}/mcp`, sessions[0]!);
    await stream.next((event) => event.id !== undefined);
    for (const headers of sessions.slice(1, 4)) expect((await rawMcp(service.url, LIST, headers)).status).toBe(200);
    clock.advance(SESSION_EVICT_IDLE_MS + 60_000);
    expect((await rawMcp(service.url, LIST, sessions[4]!)).status).toBe(200);

    await openRawSession(service.url, '2025-11-25');
    // Sessions 1-3 were idle with nothing open: gone from memory, down to the limit. Session 0 is
    // older but its stream is open.
    const held = (i: number) => service.app.mcpSessions.has(sessions[i]!['mcp-session-id']!);
    expect([0, 1, 2, 3, 4].map(held)).toEqual([true, false, false, false, true]);
    expect(service.app.mcpSessions.size).toBe(3);

    // A dropped session answers as before, rehydrated from the store.
    const again = await rawMcp(service.url, LIST, sessions[1]!);
    expect(again.status).toBe(200);
    expect(again.messages[0].result.tools.length).toBeGreaterThan(0);
    expect(held(1)).toBe(true);
    for (const headers of sessions) expect((await rawMcp(service.url, LIST, headers)).status).toBe(200);
    stream.close();
  });

  it('drops a session once its stream has closed and it has been idle', async () => {
    const held = await openRawSession(service.url, '2025-11-25');
    const id = held['mcp-session-id']!;
    const stream = await EventStreamReader.open(`${service.url}/mcp`, held);
    await stream.next((event) => event.id !== undefined);
    stream.close();
    clock.advance(SESSION_EVICT_IDLE_MS + 60_000);
    expect(service.app.mcpSessions.has(id)).toBe(true);
    // The server sees the stream end asynchronously; each new session makes room by dropping the
    // least recently used idle one, so the closed-stream session goes within a few.
    await expect
      .poll(async () => {
        await openRawSession(service.url, '2025-11-25');
        return service.app.mcpSessions.has(id);
      })
      .toBe(false);
    expect((await rawMcp(service.url, LIST, held)).status).toBe(200);
    expect(service.app.mcpSessions.has(id)).toBe(true);
  });
});

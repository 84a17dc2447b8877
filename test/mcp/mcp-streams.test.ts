import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService, api } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { connectLegacy, connectModern } from '../support/mcp-clients.js';
import { openRawSession, rawMcp } from '../support/raw-mcp.js';
import { EventStreamReader, isMethod } from '../support/event-stream.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../../src/platform/clock.js';
import { progressFixture } from '../support/progress-fixture.js';
import { registerConformanceFixtures } from '../../src/testing/conformance-fixtures.js';

describe.each(STORES)('MCP streams: progress, GET-stream updates, resumption [%s]', (store) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(store, { mcpExtensions: [progressFixture, registerConformanceFixtures] });
    await api(`${service.url}/api/projects`, { method: 'POST', json: { id: 'proj_streams', name: 'Streams' } });
  });
  afterAll(async () => service?.close());

  it("delivers progress on the call's own response stream (2025 era)", async () => {
    const { client } = await connectLegacy(service.url);
    const seen: number[] = [];
    const result = await client.callTool({ name: 'test_progress', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(seen).toEqual([1, 2, 3]);
    expect((result.content as { text: string }[])[0]!.text).toBe('done after 3 steps');
    await client.close();
  });

  it("delivers progress on the call's own response stream (2026-07-28)", async () => {
    const client = await connectModern(service.url);
    const seen: number[] = [];
    await client.callTool(
      { name: 'test_progress', arguments: { steps: 4 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(seen).toEqual([1, 2, 3, 4]);
    await client.close();
  });

  it("sends a tool's elicitation on the call's own stream, so a client without a GET stream gets it", async () => {
    // The conformance client opens its GET stream in the background and calls at once; this one
    // never opens it. The request must still reach it, and the call finish with its answer.
    const headers = await openRawSession(service.url, '2025-11-25', {}, { elicitation: {} });
    const call = await EventStreamReader.open(`${service.url}/mcp`, headers, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'test_elicitation_sep1330_enums', arguments: {} },
    });
    expect(call.response.headers.get('content-type')).toContain('text/event-stream');
    const asked = JSON.parse((await call.next((e) => e.data !== '')).data);
    expect(asked).toMatchObject({ method: 'elicitation/create', params: { mode: 'form' } });
    expect(Object.keys(asked.params.requestedSchema.properties)).toEqual([
      'untitledSingle',
      'titledSingle',
      'legacyEnum',
      'untitledMulti',
      'titledMulti',
    ]);
    const content = { untitledSingle: 'option2', titledMulti: ['value1', 'value3'] };
    const answered = await rawMcp(
      service.url,
      { jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content } },
      headers,
    );
    expect(answered.status).toBe(202);
    const done = JSON.parse((await call.next((e) => e.data.includes('"id":7'))).data);
    expect(done.result.content[0].text).toBe(
      `Elicitation completed: action=accept, content=${JSON.stringify(content)}`,
    );
    call.close();
  });

  it('sends notifications/resources/updated on the session GET stream to a subscribed client', async () => {
    const { client } = await connectLegacy(service.url);
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri));
    });
    await client.subscribeResource({ uri: 'project://proj_streams' });
    // The client opens its GET stream after initialize; wait until the server holds it by round-tripping a ping.
    await client.ping();
    const patch = await api(`${service.url}/api/projects/proj_streams`, {
      method: 'PATCH',
      json: { name: 'Streams renamed' },
    });
    expect(patch.status).toBe(200);
    expect(await updated).toBe('project://proj_streams');
    await client.close();
  });

  it('delivers resource updates on a 2026-07-28 subscriptions/listen stream', async () => {
    const client = await connectModern(service.url);
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri));
    });
    const subscription = await client.listen({ resourceSubscriptions: ['project://proj_streams'] });
    await api(`${service.url}/api/projects/proj_streams`, { method: 'PATCH', json: { name: 'Streams, modern' } });
    expect(await updated).toBe('project://proj_streams');
    await subscription.close();
    await client.close();
  });

  it('resumes the GET stream with Last-Event-ID, replaying what was sent while disconnected', async () => {
    const session = await openRawSession(service.url, '2025-11-25');
    await rawMcp(
      service.url,
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'project://proj_streams' } },
      session,
    );
    const first = await EventStreamReader.open(`${service.url}/mcp`, session);
    expect(first.response.status).toBe(200);
    const priming = await first.next((e) => e.id !== undefined);
    first.close();

    await api(`${service.url}/api/projects/proj_streams`, { method: 'PATCH', json: { timezone: 'Europe/Berlin' } });
    await api(`${service.url}/api/projects/proj_streams`, { method: 'PATCH', json: { timezone: 'Europe/Paris' } });

    const resumed = await EventStreamReader.open(`${service.url}/mcp`, { ...session, 'last-event-id': priming.id! });
    expect(resumed.response.status).toBe(200);
    await resumed.next(isMethod('notifications/resources/updated'));
    await expect.poll(() => resumed.messages('notifications/resources/updated').length).toBeGreaterThanOrEqual(2);
    resumed.close();
  });
});

describe('idle 2025-era sessions', () => {
  it('are deleted after 24 hours without a request, and their clients get 404', async () => {
    const clock = new ManualClock('2026-05-01T08:00:00Z');
    const service = await startService('pglite', { clock });
    try {
      const idle = await openRawSession(service.url);
      clock.advance(12 * 3600_000);
      const active = await openRawSession(service.url);
      clock.advance(13 * 3600_000);
      expect(await service.app.mcpSessions.sweep()).toBe(1);
      expect((await rawMcp(service.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, idle)).status).toBe(404);
      expect((await rawMcp(service.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, active)).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});

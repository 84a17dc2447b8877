import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { connectLegacy, connectModern, connectSse } from '../support/mcp-clients.js';

describe.each(STORES)('MCP endpoint, every era [%s]', (store) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(store, { demo: true });
  });
  afterAll(async () => service?.close());

  it('serves a 2026-07-28 client statelessly: tools/list and an enveloped call', async () => {
    const client = await connectModern(service.url);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const tools = await client.listTools();
    const listProjects = tools.tools.find((t) => t.name === 'list_projects');
    expect(listProjects?.annotations?.readOnlyHint).toBe(true);
    expect(listProjects?.outputSchema).toBeDefined();
    const result = await client.callTool({ name: 'list_projects', arguments: {} });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { meta: { tool: string }; data: { projects: { id: string }[] } };
    expect(structured.meta.tool).toBe('list_projects');
    expect(structured.data.projects.map((p) => p.id)).toContain('proj_demo');
    await client.close();
  });

  it('serves a 2025-era client with a session id', async () => {
    const { client, transport } = await connectLegacy(service.url);
    expect(transport.sessionId).toMatch(/[0-9a-f-]{36}/);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('list_projects');
    const result = await client.callTool({ name: 'list_projects', arguments: {} });
    expect(result.isError).toBeFalsy();
    await transport.terminateSession();
    await client.close();
  });

  it('serves a 2024-11-05 HTTP+SSE client', async () => {
    const client = await connectSse(service.url);
    const result = await client.callTool({ name: 'list_projects', arguments: {} });
    expect((result.content as { text: string }[])[0]!.text).toContain('proj_demo');
    await client.close();
  });
});

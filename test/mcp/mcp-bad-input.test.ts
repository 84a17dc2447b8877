import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { openRawSession, postLarge, rawMcp } from '../support/raw-mcp.js';
import { connectLegacy, connectModern } from '../support/mcp-clients.js';
import { EventStreamReader } from '../support/event-stream.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

describe('MCP bad input gets the answer the spec names, and the process keeps serving', () => {
  let service: RunningService;
  let session: Record<string, string>;
  beforeAll(async () => {
    service = await startService('pglite');
    session = await openRawSession(service.url);
  });
  afterAll(async () => service?.close());

  it('malformed JSON → 400 with JSON-RPC -32700', async () => {
    const res = await rawMcp(service.url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect(res.messages[0].error.code).toBe(-32700);
  });

  it('a JSON-RPC batch cannot open a session → 400 -32600', async () => {
    const res = await rawMcp(service.url, [INIT, { ...INIT, id: 2 }]);
    expect(res.status).toBe(400);
    expect(res.messages[0].error.code).toBe(-32600);
  });

  it('an unknown method → -32601', async () => {
    const res = await rawMcp(service.url, { jsonrpc: '2.0', id: 7, method: 'nope/nothing' }, session);
    expect(res.messages[0]).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('an unknown tool → a protocol error naming the tool', async () => {
    const res = await rawMcp(
      service.url,
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      session,
    );
    expect(res.messages[0].error.code).toBe(-32602);
    expect(res.messages[0].error.message).toContain('no_such_tool');
  });

  it('arguments of the wrong type → an isError result that names the problem', async () => {
    const res = await rawMcp(
      service.url,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'list_projects', arguments: { surprise: 42 } } },
      session,
    );
    const result = res.messages[0].result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/surprise/);
  });

  it('a string holding U+0000 → an isError result naming the argument, on both eras', async () => {
    // No stored text can hold NUL; the tool must never see it (it used to reach the store as a 500-class failure).
    const args = { query: 'roas\u0000drop', project_id: 'proj_demo' };
    const { client: legacy } = await connectLegacy(service.url);
    const modern = await connectModern(service.url);
    try {
      for (const client of [legacy, modern]) {
        const result = (await client.callTool({ name: 'search_context', arguments: args })) as {
          isError?: boolean;
          content: { text: string }[];
          _meta?: Record<string, { code: string; errors: unknown[] }>;
        };
        expect(result.isError).toBe(true);
        expect(result.content[0]!.text).toMatch(/^validation_failed: arguments\.query: contains the NUL character/);
        expect(result._meta?.['service.error']).toMatchObject({
          code: 'validation_failed',
          errors: [{ path: 'arguments.query', message: expect.stringContaining('U+0000') }],
        });
      }
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it('a resource URI naming a project or run that does not exist → resource-not-found (-32602 with data {uri}), on both eras', async () => {
    // Before: the read's NotFoundError reached the client as -32603 Internal error.
    const { client: legacy } = await connectLegacy(service.url);
    const modern = await connectModern(service.url);
    try {
      for (const client of [legacy, modern]) {
        for (const uri of ['project://proj_nope', 'anomalies://proj_nope/recent', 'run://proj_nope/run_nope']) {
          const error = (await client.readResource({ uri }).then(
            () => undefined,
            (e: unknown) => e,
          )) as { code?: number; data?: unknown; message?: string } | undefined;
          expect(error?.code).toBe(-32602);
          expect(error?.data).toEqual({ uri });
          expect(error?.message).toMatch(/does not exist/);
        }
      }
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it('on the 2024-11-05 SSE transport, a batch or a non-JSON-RPC body → 400 -32600, and the stream keeps working', async () => {
    const stream = await EventStreamReader.open(`${service.url}/sse`, {});
    try {
      const endpoint = await stream.next((event) => event.event === 'endpoint');
      const post = (body: unknown) =>
        fetch(new URL(endpoint.data, service.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      for (const body of [[{ jsonrpc: '2.0', id: 1, method: 'ping' }], { hello: 'world' }, { jsonrpc: '2.0', id: 1 }]) {
        const refused = await post(body);
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32600);
      }
      // Before, the batch was accepted (202) and never answered.
      expect((await post({ jsonrpc: '2.0', id: 42, method: 'ping' })).status).toBe(202);
      await stream.next((event) => event.data.includes('"id":42'));
    } finally {
      stream.close();
    }
  });

  it('a body over 4 MiB → 413', async () => {
    const res = await postLarge(service.url, '/mcp', 4 * 1024 * 1024 + 10, session);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).code).toBe('payload_too_large');
  });

  it('a wrong Accept header → 406', async () => {
    const res = await rawMcp(service.url, INIT, { accept: 'text/html' });
    expect(res.status).toBe(406);
  });

  it('an unsupported MCP-Protocol-Version header on a session → 400', async () => {
    const res = await rawMcp(
      service.url,
      { jsonrpc: '2.0', id: 10, method: 'tools/list' },
      { ...session, 'mcp-protocol-version': '1999-01-01' },
    );
    expect(res.status).toBe(400);
  });

  it('an unsupported revision in a 2026-07-28 envelope → 400 naming the supported ones', async () => {
    const res = await rawMcp(
      service.url,
      {
        jsonrpc: '2.0',
        id: 11,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2099-01-01',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          },
        },
      },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/2026-07-28|protocol/i);
  });

  it('a foreign Origin → 403; a localhost Origin passes', async () => {
    expect((await rawMcp(service.url, INIT, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await rawMcp(service.url, INIT, { origin: 'http://localhost:6274' })).status).toBe(200);
  });

  it('a page of an allowed Origin can use the endpoint from a browser (CORS); a foreign one cannot', async () => {
    const page = 'http://localhost:6274';
    const preflight = await fetch(`${service.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: page,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-session-id, authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(page);
    for (const name of ['content-type', 'mcp-protocol-version', 'mcp-session-id', 'authorization', 'last-event-id'])
      expect(preflight.headers.get('access-control-allow-headers')).toContain(name);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
    const foreign = await fetch(`${service.url}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    // The SDK path (initialize), the fast path (tools/list on the session) and a problem answer.
    const init = await rawMcp(service.url, INIT, { origin: page });
    const sessionHeaders = {
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-06-18',
      origin: page,
    };
    await rawMcp(service.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders);
    const list = await rawMcp(service.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, sessionHeaders);
    const missing = await rawMcp(
      service.url,
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      { ...sessionHeaders, 'mcp-session-id': 'no-such-session' },
    );
    for (const answer of [init, list, missing]) {
      expect(answer.headers.get('access-control-allow-origin')).toBe(page);
      expect(answer.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    }
    expect([init.status, list.status, missing.status]).toEqual([200, 200, 404]);
    // No Origin (a non-browser client): no CORS headers.
    expect((await rawMcp(service.url, INIT)).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('an unknown session → 404, and a deleted session is gone', async () => {
    expect(
      (
        await rawMcp(
          service.url,
          { jsonrpc: '2.0', id: 12, method: 'tools/list' },
          { ...session, 'mcp-session-id': 'no-such-session' },
        )
      ).status,
    ).toBe(404);
    const other = await openRawSession(service.url);
    const del = await fetch(`${service.url}/mcp`, { method: 'DELETE', headers: other });
    expect(del.status).toBe(200);
    expect((await rawMcp(service.url, { jsonrpc: '2.0', id: 13, method: 'tools/list' }, other)).status).toBe(404);
  });

  it('after all of that, the process still serves a full client', async () => {
    const { client } = await connectLegacy(service.url);
    const result = await client.callTool({ name: 'list_projects', arguments: {} });
    expect(result.isError).toBeFalsy();
    await client.close();
  });
});

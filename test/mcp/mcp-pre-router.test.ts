import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { logCapture } from '../support/log-capture.js';
import { STORES } from '../support/stores.js';

const TOKEN = `${'p'.repeat(12)}static-token-for-pre-router-tests-0123`;
const AUTH = { authorization: `Bearer ${TOKEN}` };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'pre-router-test', version: '1.0.0' },
};

/** A 2026-07-28 request as the official client frames it (headers that equal the body). */
function modern(
  method: 'tools/list' | 'tools/call',
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): { headers: Record<string, string>; body: unknown } {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...AUTH,
      ...headers,
    },
    body: { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } },
  };
}

async function post(url: string, request: { headers: Record<string, string>; body: unknown }) {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: request.headers,
    body: JSON.stringify(request.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined,
  };
}

/**
 * One raw HTTP/1.1 request on its own connection that sends `Expect: 100-continue`: node answers
 * `100 Continue` as it hands the request to the service, so the body can be sent strictly after the
 * service has started reading it.
 */
function rawExchange(url: string, request: { headers: Record<string, string>; body: unknown }) {
  const { hostname, port, host } = new URL(url);
  const body = Buffer.from(JSON.stringify(request.body));
  const headers = {
    ...request.headers,
    host,
    'content-length': String(body.length),
    expect: '100-continue',
    connection: 'close',
  };
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(
    `POST /mcp HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n`,
  );
  let received = '';
  let onContinue: () => void;
  const continued = new Promise<void>((resolve) => (onContinue = resolve));
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
    if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
      received = received.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
      onContinue();
    }
  });
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { socket, body, continued, answer };
}

describe.each(STORES)(
  'the /mcp pre-router answers hot requests below Fastify and hands the rest on intact [%s]',
  (store) => {
    let service: RunningService;
    const clock = new ManualClock('2026-11-23T08:00:00Z');
    const { destination: logs, lines: logLines } = logCapture();

    beforeAll(async () => {
      service = await startService(store, {
        env: { SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: TOKEN },
        clock,
        logDestination: logs,
      });
      expect(
        (
          await api(`${service.url}/api/projects`, {
            method: 'POST',
            headers: AUTH,
            json: { id: 'proj_pre', name: 'Pre-router' },
          })
        ).status,
      ).toBe(201);
      // The first tools/list of the process is the SDK's (it fills the listing the fast path serves).
      const client = new ModernClient(
        { name: 'pre-router-test', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new ModernTransport(new URL(`${service.url}/mcp`), { requestInit: { headers: AUTH } }));
      await client.listTools();
      await client.close();
    });
    afterAll(async () => service?.close());

    it('a read-only call is answered with a length, the caller request id, and one request log line', async () => {
      logLines.length = 0;
      const res = await post(
        service.url,
        modern('tools/call', { name: 'list_projects', arguments: {} }, { 'x-request-id': 'pre-router-call-0001' }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(res.text)));
      expect(res.headers.get('x-request-id')).toBe('pre-router-call-0001');
      expect(res.json.result.structuredContent.data.projects.map((p: { id: string }) => p.id)).toContain('proj_pre');
      const line = logLines.find((l) => l.reqId === 'pre-router-call-0001');
      expect(line).toMatchObject({
        msg: 'request completed',
        req: { method: 'POST', url: '/mcp' },
        res: { statusCode: 200 },
      });
      expect(JSON.stringify(logLines)).not.toContain(TOKEN);
    });

    it('a handed-on request keeps its body byte for byte and the request id it was given', async () => {
      const title = 'Größere Kampagne — “Winter” ✓ 🚀';
      const add = await post(
        service.url,
        modern(
          'tools/call',
          {
            name: 'add_context_event',
            arguments: { project_id: 'proj_pre', event_type: 'campaign_launch', title, event_date: '2026-11-20' },
          },
          { 'x-request-id': 'pre-router-write-0001' },
        ),
      );
      expect(add.status).toBe(200);
      expect(add.headers.get('x-request-id')).toBe('pre-router-write-0001');
      const listed = await api(`${service.url}/api/context/events?project_id=proj_pre`, { headers: AUTH });
      expect(listed.body.events.map((e: { title: string }) => e.title)).toContain(title);
    });

    it('the gate runs once per request, whether the pre-router answers it or hands it on', async () => {
      clock.set('2026-11-23T09:00:00Z');
      // The PUT itself is the first request of this minute: five more are allowed.
      expect(
        (
          await api(`${service.url}/api/org/settings`, {
            method: 'PUT',
            headers: AUTH,
            json: { limits: { api_requests_per_minute: 6 } },
          })
        ).status,
      ).toBe(200);
      const answered = modern('tools/call', { name: 'list_projects', arguments: {} });
      // An unknown tool and a writing tool pass the gate here and are answered by the SDK path.
      const handedOn = [
        modern('tools/call', { name: 'no_such_tool', arguments: {} }),
        modern('tools/call', {
          name: 'add_context_event',
          arguments: { project_id: 'proj_pre', event_type: 'release', title: 'v2', event_date: '2026-11-21' },
        }),
      ];
      const statuses = [];
      for (const request of [answered, handedOn[0]!, handedOn[1]!, answered, handedOn[0]!])
        statuses.push((await post(service.url, request)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const limited = await post(service.url, handedOn[1]!);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('60');
      clock.advance(60_000);
      expect(
        (
          await api(`${service.url}/api/org/settings`, {
            method: 'PUT',
            headers: AUTH,
            json: { limits: { api_requests_per_minute: 6000 } },
          })
        ).status,
      ).toBe(200);
    });

    it('reads a body that arrives after its headers, in parts, and lets a client leave mid-body without a trace', async () => {
      const call = modern('tools/call', { name: 'list_projects', arguments: {} });
      const parted = rawExchange(service.url, call);
      const leaving = rawExchange(service.url, call);
      await Promise.all([parted.continued, leaving.continued]);
      parted.socket.write(parted.body.subarray(0, 20));
      leaving.socket.write(leaving.body.subarray(0, 20));
      // A whole request in between, so the parts are likely to be read apart (either way is correct).
      expect((await post(service.url, modern('tools/list'))).status).toBe(200);
      parted.socket.write(parted.body.subarray(20));
      leaving.socket.destroy();
      const answer = await parted.answer;
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(
        JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).result.structuredContent.data.projects.map(
          (p: { id: string }) => p.id,
        ),
      ).toContain('proj_pre');
      expect(await leaving.answer).toBe('');
      // And the service goes on serving.
      expect((await post(service.url, modern('tools/call', { name: 'list_projects', arguments: {} }))).status).toBe(
        200,
      );
      expect(logLines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    });

    it('a refused gate is answered by the route: 401 with the challenge, foreign Origin 403, malformed JSON -32700', async () => {
      const noToken = modern('tools/list');
      delete noToken.headers.authorization;
      const unauthorized = await post(service.url, noToken);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('www-authenticate')).toContain('resource_metadata=');
      const foreign = await post(service.url, modern('tools/list', {}, { origin: 'https://evil.example' }));
      expect(foreign.status).toBe(403);
      const malformed = await fetch(`${service.url}/mcp`, {
        method: 'POST',
        headers: modern('tools/list').headers,
        body: '{"jsonrpc":"2.0",',
      });
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    });
  },
);

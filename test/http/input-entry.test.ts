import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamReader } from '../support/event-stream.js';
import { MCP_ACCEPT, openRawSession, rawMcp, sseMessages } from '../support/raw-mcp.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'input-entry-test', version: '1.0.0' },
};
const DEPTH = 5000;
/** `{"a":{"a":…1…}}` nested `depth` levels deep, as JSON text. */
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A 2026-07-28 request as the official client frames it. */
function modernHeaders(method: string, name?: string): Record<string, string> {
  return { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
}
function modernBody(id: number, method: string, params: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } };
}

/** An open 2024-11-05 SSE session: POSTs to its endpoint, reads answers from its stream. */
async function openSse(url: string) {
  const stream = await EventStreamReader.open(`${url}/sse`, {});
  const endpoint = new URL((await stream.next((event) => event.event === 'endpoint')).data, url);
  const post = (body: string) =>
    fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const answer = async (id: number) => JSON.parse((await stream.next((e) => e.data.includes(`"id":${id}`))).data);
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'sse', version: '1' } },
  };
  expect((await post(JSON.stringify(init))).status).toBe(202);
  await answer(0);
  await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return { stream, endpoint, post, answer };
}

describe.each(STORES)('hostile input is refused at the entry, never a 500 [%s]', (store) => {
  let service: RunningService;
  let session: Record<string, string>;
  beforeAll(async () => {
    service = await startService(store, { demo: true });
    session = await openRawSession(service.url);
  });
  afterAll(async () => service?.close());

  describe('nesting 5,000 levels deep', () => {
    it('REST: 400 validation_failed naming the path, in a field and as a bare body', async () => {
      const skill = `{"project_id":"proj_demo","name":"deep-one","description":"d","body_md":"1. x","metadata":${deepObject(DEPTH)}}`;
      const res = await api(`${service.url}/api/skills`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: skill,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors[0].path).toMatch(/^body\.metadata(\.a)+$/);
      expect(res.body.errors[0].message).toMatch(/64 levels/);
      const bare = await api(`${service.url}/api/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: deepArray(DEPTH),
      });
      expect(bare.status).toBe(400);
      expect(bare.body.errors[0].path).toMatch(/^body(\.0)+$/);
      // 64 levels are still fine (the project body is refused for what it is, not for its depth).
      const fine = await api(`${service.url}/api/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: deepArray(64),
      });
      expect(fine.status).toBe(400);
      expect(fine.body.errors[0].path).toBe('body');
    });

    it('REST: the connector routes (connect link, Nango webhook) refuse it before they run', async () => {
      for (const url of ['/api/credentials/connect-link', '/api/connectors/nango/webhook', '/api/credentials']) {
        const res = await api(`${service.url}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"project_id":"proj_demo","x":${deepObject(DEPTH)}}`,
        });
        expect(res.status, url).toBe(400);
        expect(res.body.errors[0].path, url).toMatch(/^body\.x(\.a)+$/);
      }
    });

    it('MCP 2026-07-28 and 2025 sessions: -32602 naming the argument path; a deep bare array: -32600', async () => {
      const args = `{"query":${deepObject(DEPTH)}}`;
      const modernCall = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_context","arguments":${args},"_meta":${JSON.stringify(META)}}}`;
      const sessionCall = `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search_context","arguments":${args}}}`;
      const cases = [
        { body: modernCall, headers: modernHeaders('tools/call', 'search_context'), id: 5 },
        { body: sessionCall, headers: session, id: 6 },
      ];
      for (const { body, headers, id } of cases) {
        const res = await rawMcp(service.url, body, headers);
        expect(res.status).toBe(400);
        expect(res.messages[0]).toMatchObject({ id, error: { code: -32602 } });
        expect(res.messages[0].error.message).toMatch(/params\.arguments\.query(\.a)+ .*64 levels/);
      }
      for (const headers of [modernHeaders('tools/list'), session]) {
        const bare = await rawMcp(service.url, deepArray(DEPTH), headers);
        expect(bare.status).toBe(400);
        expect(bare.messages[0]).toMatchObject({ id: null, error: { code: -32600 } });
      }
    });

    it('MCP 2024-11-05 SSE: POST /messages answers 400 with the JSON-RPC error, and the stream keeps working', async () => {
      const sse = await openSse(service.url);
      try {
        const refused = await sse.post(
          `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_projects","arguments":${deepObject(DEPTH)}}}`,
        );
        expect(refused.status).toBe(400);
        expect(await refused.json()).toMatchObject({ id: 3, error: { code: -32602 } });
        expect((await sse.post('{"jsonrpc":"2.0","id":4,"method":"ping"}')).status).toBe(202);
        expect((await sse.answer(4)).result).toEqual({});
      } finally {
        sse.stream.close();
      }
    });
  });

  describe('unpaired surrogates', () => {
    it('REST: 400 naming each place (project name, datastream name, Skill metadata, a key)', async () => {
      const post = (url: string, text: string) =>
        api(`${service.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      const project = await post('/api/projects', '{"id":"proj_lone","name":"A\\ud800B"}');
      expect(project.status).toBe(400);
      expect(project.body.errors).toEqual([{ path: 'body.name', message: expect.stringMatching(/surrogate/) }]);
      const datastream = await post(
        '/api/flows/upsert',
        '{"project_id":"proj_demo","kind":"datastream","definition":{"name":"\\udc00x","connection_ref_id":"demo-main","provider":"csv","cadence":"0 6 * * *"}}',
      );
      expect(datastream.status).toBe(400);
      expect(datastream.body.errors).toEqual([
        { path: 'body.definition.name', message: expect.stringMatching(/surrogate/) },
      ]);
      const skill = await post(
        '/api/skills',
        '{"project_id":"proj_demo","name":"lone-one","description":"d","body_md":"1. x","metadata":{"k":["ok","\\ud800"],"\\udfffkey":1}}',
      );
      expect(skill.status).toBe(400);
      expect(skill.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
        'body.metadata.k.1',
        'body.metadata.\udfffkey',
      ]);
      // A well-formed pair (an emoji) is fine.
      const emoji = await post('/api/projects', '{"id":"proj_emoji","name":"Launch \\ud83d\\ude80"}');
      expect(emoji.status).toBe(201);
      expect(emoji.body.name).toBe('Launch 🚀');
    });

    it('MCP: an isError result naming the argument, on both eras', async () => {
      const args = { project_id: 'proj_demo', query: 'roas\ud800' };
      const modern = await rawMcp(
        service.url,
        modernBody(2, 'tools/call', { name: 'search_context', arguments: args }),
        modernHeaders('tools/call', 'search_context'),
      );
      const legacy = await rawMcp(
        service.url,
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_context', arguments: args } },
        session,
      );
      for (const res of [modern, legacy]) {
        expect(res.messages[0].result.isError).toBe(true);
        expect(res.messages[0].result.content[0].text).toMatch(/^validation_failed: arguments\.query: .*surrogate/);
      }
    });
  });

  describe('protocol methods with invalid params → -32602 naming the parameter', () => {
    const invalid: { method: string; params: Record<string, unknown>; names: RegExp }[] = [
      { method: 'resources/read', params: { uri: 42 }, names: /uri/ },
      { method: 'logging/setLevel', params: { level: 'loud' }, names: /level/ },
    ];
    // Only 2025 sessions offer resources/subscribe (2026-07-28 has subscriptions/listen; SSE: -32601).
    const subscribe = { method: 'resources/subscribe', params: { uri: { a: 1 } }, names: /uri/ };
    const expectInvalidParams = (message: { error?: { code: number; message: string } }, names: RegExp) => {
      expect(message.error?.code).toBe(-32602);
      expect(message.error?.message).toMatch(names);
      expect(message.error?.message).not.toContain('\n');
      expect(message.error?.message.length).toBeLessThan(200);
    };

    it('on a 2025 session, including a repeated initialize', async () => {
      for (const [i, { method, params, names }] of [...invalid, subscribe].entries()) {
        const res = await rawMcp(service.url, { jsonrpc: '2.0', id: 100 + i, method, params }, session);
        expectInvalidParams(res.messages[0], names);
      }
      const reinit = await rawMcp(
        service.url,
        {
          jsonrpc: '2.0',
          id: 110,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: 'x', clientInfo: { name: 'x', version: '1' } },
        },
        session,
      );
      expect(reinit.messages[0].error.code).not.toBe(-32603);
    });

    it('on 2026-07-28 (where the log level travels in _meta, and logging/setLevel is gone)', async () => {
      const read = invalid[0]!;
      const res = await rawMcp(service.url, modernBody(200, read.method, read.params), modernHeaders(read.method));
      expectInvalidParams(res.messages[0], read.names);
      const loud = { ...META, 'io.modelcontextprotocol/logLevel': 'loud' };
      const level = await rawMcp(
        service.url,
        { jsonrpc: '2.0', id: 201, method: 'resources/list', params: { _meta: loud } },
        modernHeaders('resources/list'),
      );
      expectInvalidParams(level.messages[0], /logLevel/);
    });

    it('on the 2024-11-05 SSE transport', async () => {
      const sse = await openSse(service.url);
      try {
        for (const [i, { method, params, names }] of invalid.entries()) {
          expect((await sse.post(JSON.stringify({ jsonrpc: '2.0', id: 300 + i, method, params }))).status).toBe(202);
          expectInvalidParams(await sse.answer(300 + i), names);
        }
        const reinit = {
          jsonrpc: '2.0',
          id: 310,
          method: 'initialize',
          params: { protocolVersion: '2024-11-05', capabilities: 'x', clientInfo: { name: 'x', version: '1' } },
        };
        await sse.post(JSON.stringify(reinit));
        expectInvalidParams(await sse.answer(310), /capabilities/);
      } finally {
        sse.stream.close();
      }
    });
  });

  describe('a body over the limit is answered 413, never cut off', () => {
    const FIVE_MIB = 5 * 1024 * 1024;
    const ITERATIONS = 4;
    const payload = Buffer.from(
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${'x'.repeat(FIVE_MIB)}"}}`,
    );
    /** The body as a stream of 64 KiB chunks: fetch sends it chunked, without a Content-Length. */
    const chunked = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < payload.length; at += 65536) controller.enqueue(payload.subarray(at, at + 65536));
          controller.close();
        },
      });

    async function expect413(url: string, headers: Record<string, string>) {
      for (let i = 0; i < ITERATIONS; i++) {
        for (const streamed of [false, true]) {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
            body: streamed ? chunked() : payload,
            ...(streamed ? { duplex: 'half' } : {}),
          } as RequestInit);
          expect(res.status).toBe(413);
          expect(res.headers.get('connection')).toBe('close');
          expect((await res.json()).code).toBe('payload_too_large');
        }
      }
    }

    /**
     * The deterministic form of the race: a client that reads the 413 and only then sends the rest
     * of its body. Before, the server had closed the connection by then (EPIPE on the next write).
     */
    async function sendAllAfter413(url: string, headers: Record<string, string>) {
      const target = new URL(url);
      const socket = net.connect(Number(target.port), target.hostname);
      let failure: NodeJS.ErrnoException | undefined;
      socket.on('error', (error) => (failure = error));
      const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await new Promise((resolve) => socket.once('connect', resolve));
      const head = Object.entries({
        host: target.host,
        'content-type': 'application/json',
        accept: MCP_ACCEPT,
        ...headers,
      })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(
        `POST ${target.pathname}${target.search} HTTP/1.1\r\n${head}content-length: ${payload.length}\r\n\r\n`,
      );
      let answer = '';
      await new Promise<void>((resolve) =>
        socket.on('data', (data) => {
          answer += data;
          const length = /content-length: (\d+)/i.exec(answer)?.[1];
          const start = answer.indexOf('\r\n\r\n');
          if (length && start > 0 && answer.length >= start + 4 + Number(length)) resolve();
        }),
      );
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      let sent = 0;
      while (sent < payload.length && !failure && !socket.destroyed) {
        const chunk = payload.subarray(sent, sent + 65536);
        sent += chunk.length;
        if (!socket.write(chunk) && !socket.destroyed)
          await new Promise((resolve) => {
            socket.once('drain', resolve);
            socket.once('close', resolve);
          });
      }
      await ended;
      expect(failure?.code).toBeUndefined();
      expect(sent).toBe(payload.length);
    }

    it('on /mcp, every era', async () => {
      await expect413(`${service.url}/mcp`, modernHeaders('tools/list'));
      await expect413(`${service.url}/mcp`, session);
      await sendAllAfter413(`${service.url}/mcp`, modernHeaders('tools/list'));
      await sendAllAfter413(`${service.url}/mcp`, session);
    });

    it('on POST /messages and REST', async () => {
      const sse = await openSse(service.url);
      try {
        await expect413(sse.endpoint.href, {});
        await sendAllAfter413(sse.endpoint.href, {});
      } finally {
        sse.stream.close();
      }
      await expect413(`${service.url}/api/projects`, {});
      await sendAllAfter413(`${service.url}/api/projects`, {});
    });
  });

  it('a wrong Accept header → 406 before any session check', async () => {
    const res = await rawMcp(service.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'text/html' });
    expect(res.status).toBe(406);
    expect(res.messages[0].error.message).toMatch(/Accept/);
    // With a session, too.
    expect(
      (await rawMcp(service.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...session, accept: 'text/html' }))
        .status,
    ).toBe(406);
  });

  it('after all of that, the service still serves', async () => {
    const res = await rawMcp(service.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, session);
    expect(res.messages[0].result.tools.length).toBeGreaterThan(0);
    expect(sseMessages).toBeTypeOf('function');
  });
});

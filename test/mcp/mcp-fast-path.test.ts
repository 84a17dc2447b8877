import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServiceApp, type ServiceApp } from '../../src/app/service-app.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { MCP_APPS_CAPABILITIES } from '../support/mcp-clients.js';
import { api, startService, TEST_SECRETS_KEY, type RunningService } from '../support/service.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

/** A view every build has (the views are built by npm run build, before the tests). */
const VIEW_URI = 'ui://context-hub/search.html';

interface Raw {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A fetch that records every JSON-RPC POST it sends (headers and body) into `into`. */
function recordingFetch(into: Raw[]): typeof fetch {
  return async (input, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      into.push({ headers, body: JSON.parse(init.body) as Record<string, unknown> });
    }
    return fetch(input, init);
  };
}

/** The requests the official 2026-07-28 client sends for tools/list and tools/call. */
async function captureModernRequests(base: string): Promise<Raw[]> {
  const captured: Raw[] = [];
  const record = recordingFetch(captured);
  const client = new ModernClient(
    { name: 'fast-path-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(new URL(`${base}/mcp`), { fetch: record }));
  await client.listTools();
  expect((await client.callTool({ name: 'list_projects', arguments: {} })).isError).toBeFalsy();
  await client.readResource({ uri: VIEW_URI });
  await new SkillsClient(client).list();
  await client.close();
  return captured;
}

/** Opens a 2025-era session with the official v1 client and records its tools/list and tools/call. */
async function captureLegacySession(
  base: string,
  capabilities: Record<string, unknown> = {},
): Promise<{ requests: Raw[]; close(): Promise<void> }> {
  const requests: Raw[] = [];
  const record = recordingFetch(requests);
  const client = new LegacyClient({ name: 'fast-path-test', version: '1.0.0' }, { capabilities });
  await client.connect(new LegacyTransport(new URL(`${base}/mcp`), { fetch: record }));
  await client.listTools();
  expect((await client.callTool({ name: 'list_projects', arguments: {} })).isError).toBeFalsy();
  await client.readResource({ uri: VIEW_URI });
  return { requests, close: () => client.close() };
}

/**
 * Opens a 2025-11-25 session with the v2 client (no version pinned: the SDK's backport of the
 * Skills extension) and records the skills/list its SkillsClient sends.
 */
async function captureBackportSkillsList(base: string): Promise<{ requests: Raw[]; close(): Promise<void> }> {
  const requests: Raw[] = [];
  const record = recordingFetch(requests);
  const client = new ModernClient({ name: 'fast-path-test', version: '1.0.0' });
  await client.connect(new ModernTransport(new URL(`${base}/mcp`), { fetch: record }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
  await new SkillsClient(client).list();
  return { requests, close: () => client.close() };
}

/** One JSON-RPC answer, whether it came as JSON or as a single-message event stream. */
const single = (body: unknown) => (Array.isArray(body) && body.length === 1 ? body[0] : body);

async function send(
  base: string,
  raw: Raw,
  patch: { headers?: Record<string, string>; params?: Record<string, unknown> } = {},
) {
  const payload = patch.params
    ? { ...raw.body, params: { ...(raw.body.params as object), ...patch.params } }
    : raw.body;
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...raw.headers, ...patch.headers },
    body: JSON.stringify(payload),
  });
  const text = await res.text();
  // An SSE answer (the SDK's) is compared as its messages (the empty priming event carries none).
  const body: unknown = res.headers.get('content-type')?.startsWith('application/json')
    ? JSON.parse(text)
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line.length > 6)
        .map((line) => JSON.parse(line.slice(6)) as unknown);
  return { status: res.status, chunked: res.headers.get('transfer-encoding') === 'chunked', body };
}

describe.each(STORES)('2026-07-28 fast path answers exactly as the SDK path [%s]', (store) => {
  let fast: RunningService;
  let sdk: { app: ServiceApp; url: string; db: TestDatabase; dataDir: string };
  let requests: Raw[];
  const byMethod = (method: string) => requests.find((r) => r.body.method === method)!;

  beforeAll(async () => {
    fast = await startService(store);
    const db = await openTestDatabase(store);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-test-'));
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SECRETS_KEY: TEST_SECRETS_KEY,
      LOG_LEVEL: 'silent',
    });
    const app = await createServiceApp({
      config,
      db: db.db,
      logger: createLogger({ level: 'silent' }),
      mcpFastPath: false,
    });
    sdk = { app, url: await app.listen(), db, dataDir };
    for (const url of [fast.url, sdk.url]) {
      const created = await api(`${url}/api/projects`, {
        method: 'POST',
        json: { id: 'proj_fast', name: 'Fast path' },
      });
      expect(created.status).toBe(201);
      for (const name of ['fast-one', 'fast-two']) {
        const skill = { project_id: 'proj_fast', name, description: `${name}.`, body_md: '## Steps\n1. One.\n' };
        expect((await api(`${url}/api/skills`, { method: 'POST', json: skill })).status).toBe(201);
      }
    }
    requests = await captureModernRequests(fast.url);
  });
  afterAll(async () => {
    await fast?.close();
    await sdk?.app.close();
    await sdk?.db.drop();
    if (sdk) fs.rmSync(sdk.dataDir, { recursive: true, force: true });
  });

  it('tools/list: same answer, served without the SDK server once the listing is known', async () => {
    const a = await send(fast.url, byMethod('tools/list'));
    const b = await send(sdk.url, byMethod('tools/list'));
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    // The fast path answers with a length; the SDK path streams its Response (chunked).
    expect(a.chunked).toBe(false);
    expect(b.chunked).toBe(true);
  });

  it('skills/list: the same answer as the SDK Skills extension, and the same error for a bad cursor', async () => {
    const a = await send(fast.url, byMethod('skills/list'));
    const b = await send(sdk.url, byMethod('skills/list'));
    expect(a.status).toBe(200);
    expect((a.body as { result: { skills: unknown[] } }).result.skills).toHaveLength(2);
    expect(a.body).toEqual(b.body);
    expect(a.chunked).toBe(false);
    const bad = { params: { cursor: 'bogus' } };
    const c = await send(fast.url, byMethod('skills/list'), bad);
    const d = await send(sdk.url, byMethod('skills/list'), bad);
    expect((single(c.body) as { error: { code: number } }).error.code).toBe(-32602);
    expect(c.body).toEqual(d.body);
  });

  it('tools/list to a client that renders views: the same answer, app-only tools included only then', async () => {
    const list = byMethod('tools/list');
    const meta = (list.body.params as { _meta: Record<string, unknown> })._meta;
    const apps = { params: { _meta: { ...meta, [CLIENT_CAPABILITIES_META_KEY]: MCP_APPS_CAPABILITIES } } };
    const a = await send(fast.url, list, apps);
    const b = await send(sdk.url, list, apps);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.chunked).toBe(false);
    const names = (body: unknown) =>
      ((body as { result: { tools: { name: string }[] } }).result.tools ?? []).map((t) => t.name);
    const plain = await send(fast.url, list);
    expect(names(a.body)).toContain('get_metric_series');
    expect(names(plain.body)).not.toContain('get_metric_series');
    expect(
      names(a.body)
        .filter((n) => !names(plain.body).includes(n))
        .sort(),
    ).toEqual(
      fast.app.registry.tools
        .filter((t) => t.visibility && !t.visibility.includes('model'))
        .map((t) => t.name)
        .sort(),
    );
  });

  it('tools/call of a read-only tool: same answer (envelope, structuredContent, _meta)', async () => {
    const a = await send(fast.url, byMethod('tools/call'));
    const b = await send(sdk.url, byMethod('tools/call'));
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.chunked).toBe(false);
    expect(JSON.stringify(a.body)).toContain('proj_fast');
  });

  it('resources/read of a view: same answer, not streamed; other URIs and mismatched headers go the SDK way', async () => {
    const read = byMethod('resources/read');
    const a = await send(fast.url, read);
    const b = await send(sdk.url, read);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.chunked).toBe(false);
    expect(JSON.stringify(a.body)).toContain('text/html;profile=mcp-app');
    const other = 'ui://context-hub/no-such-view.html';
    const cases: { headers?: Record<string, string>; params?: Record<string, unknown> }[] = [
      { params: { uri: other }, headers: { 'mcp-name': other } },
      { headers: { 'mcp-name': 'ui://context-hub/insight.html' } },
      { params: { uri: 42 } },
    ];
    for (const patch of cases) {
      const x = await send(fast.url, read, patch);
      const y = await send(sdk.url, read, patch);
      expect({ patch, status: x.status, body: x.body }).toEqual({ patch, status: y.status, body: y.body });
      expect(x.chunked).toBe(y.chunked);
    }
  });

  it('leaves unknown tools, bad arguments, header mismatches and progress tokens to the SDK path', async () => {
    const call = byMethod('tools/call');
    const meta = (call.body.params as { _meta: Record<string, unknown> })._meta;
    const cases: { headers?: Record<string, string>; params?: Record<string, unknown> }[] = [
      { params: { name: 'no_such_tool' }, headers: { 'mcp-name': 'no_such_tool' } },
      { params: { arguments: { limit: 'many' } } },
      { headers: { 'mcp-name': 'something_else' } },
      { headers: { 'mcp-method': 'tools/list' } },
      { params: { _meta: { ...meta, progressToken: 'p1' } } },
    ];
    for (const patch of cases) {
      const a = await send(fast.url, call, patch);
      const b = await send(sdk.url, call, patch);
      expect({ patch, status: a.status, body: a.body }).toEqual({ patch, status: b.status, body: b.body });
      expect(a.chunked).toBe(b.chunked);
    }
  });
});

describe.each(STORES)('2025-era session fast path answers as the SDK session transport does [%s]', (store) => {
  let fast: RunningService;
  let sdk: { app: ServiceApp; url: string; db: TestDatabase; dataDir: string };
  let fastSession: Awaited<ReturnType<typeof captureLegacySession>>;
  let sdkSession: Awaited<ReturnType<typeof captureLegacySession>>;
  const pick = (session: { requests: Raw[] }, method: string) =>
    session.requests.find((r) => r.body.method === method)!;

  beforeAll(async () => {
    fast = await startService(store);
    const db = await openTestDatabase(store);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-test-'));
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SECRETS_KEY: TEST_SECRETS_KEY,
      LOG_LEVEL: 'silent',
    });
    const app = await createServiceApp({
      config,
      db: db.db,
      logger: createLogger({ level: 'silent' }),
      mcpFastPath: false,
    });
    sdk = { app, url: await app.listen(), db, dataDir };
    for (const url of [fast.url, sdk.url]) {
      expect(
        (await api(`${url}/api/projects`, { method: 'POST', json: { id: 'proj_fast', name: 'Fast path' } })).status,
      ).toBe(201);
      for (const name of ['fast-one', 'fast-two']) {
        const skill = { project_id: 'proj_fast', name, description: `${name}.`, body_md: '## Steps\n1. One.\n' };
        expect((await api(`${url}/api/skills`, { method: 'POST', json: skill })).status).toBe(201);
      }
    }
    fastSession = await captureLegacySession(fast.url);
    sdkSession = await captureLegacySession(sdk.url);
  });
  afterAll(async () => {
    await fastSession?.close();
    await sdkSession?.close();
    await fast?.close();
    await sdk?.app.close();
    await sdk?.db.drop();
    if (sdk) fs.rmSync(sdk.dataDir, { recursive: true, force: true });
  });

  it('tools/list: the same JSON-RPC answer on the same kind of stream, served without the transport', async () => {
    const a = await send(fast.url, pick(fastSession, 'tools/list'));
    const b = await send(sdk.url, pick(sdkSession, 'tools/list'));
    expect(a.status).toBe(200);
    expect(single(a.body)).toEqual(single(b.body));
    // The fast answer has a length; the SDK transport streams (chunked).
    expect(a.chunked).toBe(false);
    expect(b.chunked).toBe(true);
  });

  it('tools/list on a session whose client renders views: the same answer, app-only tools included', async () => {
    const fastApps = await captureLegacySession(fast.url, MCP_APPS_CAPABILITIES);
    const sdkApps = await captureLegacySession(sdk.url, MCP_APPS_CAPABILITIES);
    try {
      const a = await send(fast.url, pick(fastApps, 'tools/list'));
      const b = await send(sdk.url, pick(sdkApps, 'tools/list'));
      expect(single(a.body)).toEqual(single(b.body));
      expect(a.chunked).toBe(false);
      const names = (body: unknown) =>
        (single(body) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
      expect(names(a.body)).toContain('get_metric_series');
      expect(names((await send(fast.url, pick(fastSession, 'tools/list'))).body)).not.toContain('get_metric_series');
    } finally {
      await fastApps.close();
      await sdkApps.close();
    }
  });

  it('tools/call of a read-only tool: the same answer in one write; a call asking for progress streams through the transport', async () => {
    const a = await send(fast.url, pick(fastSession, 'tools/call'));
    const b = await send(sdk.url, pick(sdkSession, 'tools/call'));
    expect(a.status).toBe(200);
    expect(single(a.body)).toEqual(single(b.body));
    expect(JSON.stringify(a.body)).toContain('proj_fast');
    expect(a.chunked).toBe(false);
    const withProgress = await send(fast.url, pick(fastSession, 'tools/call'), {
      params: { _meta: { progressToken: 'p1' } },
    });
    expect(withProgress.status).toBe(200);
    expect(withProgress.chunked).toBe(true);
    expect(single(withProgress.body)).toEqual(single(b.body));
  });

  it("resources/read of a view: the same answer in one write; an unknown URI is the transport's", async () => {
    const a = await send(fast.url, pick(fastSession, 'resources/read'));
    const b = await send(sdk.url, pick(sdkSession, 'resources/read'));
    expect(a.status).toBe(200);
    expect(single(a.body)).toEqual(single(b.body));
    expect(a.chunked).toBe(false);
    expect(b.chunked).toBe(true);
    const other = { params: { uri: 'ui://context-hub/no-such-view.html' } };
    const x = await send(fast.url, pick(fastSession, 'resources/read'), other);
    const y = await send(sdk.url, pick(sdkSession, 'resources/read'), other);
    expect({ status: x.status, body: single(x.body) }).toEqual({ status: y.status, body: single(y.body) });
    expect(x.chunked).toBe(true);
  });

  it("skills/list on a backport session: the SDK extension's answer in one write; a bad cursor is the transport's", async () => {
    const fastSkills = await captureBackportSkillsList(fast.url);
    const sdkSkills = await captureBackportSkillsList(sdk.url);
    try {
      const a = await send(fast.url, pick(fastSkills, 'skills/list'));
      const b = await send(sdk.url, pick(sdkSkills, 'skills/list'));
      expect(a.status).toBe(200);
      const result = (single(a.body) as { result: Record<string, unknown> }).result;
      const uris = (result.skills as { uri: string }[]).map((entry) => entry.uri).sort();
      expect(uris).toEqual(['skill://proj_fast/fast-one/SKILL.md', 'skill://proj_fast/fast-two/SKILL.md']);
      // Before 2026-07-28 the extension answers no cache hint.
      expect(result).not.toHaveProperty('ttlMs');
      expect(single(a.body)).toEqual(single(b.body));
      expect(a.chunked).toBe(false);
      expect(b.chunked).toBe(true);
      const bad = { params: { cursor: 'bogus' } };
      const c = await send(fast.url, pick(fastSkills, 'skills/list'), bad);
      const d = await send(sdk.url, pick(sdkSkills, 'skills/list'), bad);
      expect((single(c.body) as { error: { code: number } }).error.code).toBe(-32602);
      expect(single(c.body)).toEqual(single(d.body));
      expect(c.chunked).toBe(true);
    } finally {
      await fastSkills.close();
      await sdkSkills.close();
    }
  });

  it('leaves unknown sessions, other versions, cursors and progress tokens to the SDK path', async () => {
    const cases: { headers?: Record<string, string>; params?: Record<string, unknown> }[] = [
      { headers: { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' } },
      { headers: { 'mcp-protocol-version': '1999-01-01' } },
      { headers: { 'mcp-protocol-version': '2025-03-26' } },
      { params: { cursor: 'abc' } },
      { params: { _meta: { progressToken: 'p1' } } },
    ];
    for (const patch of cases) {
      const a = await send(fast.url, pick(fastSession, 'tools/list'), patch);
      const b = await send(sdk.url, pick(sdkSession, 'tools/list'), patch);
      expect({ patch, status: a.status, body: single(a.body) }).toEqual({
        patch,
        status: b.status,
        body: single(b.body),
      });
    }
  });
});

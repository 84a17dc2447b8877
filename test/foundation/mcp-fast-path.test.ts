import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { createServiceApp, type ServiceApp } from '../../src/app/service-app.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { api, startService, TEST_SECRETS_KEY, type RunningService } from '../support/service.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

interface Raw {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The requests the official 2026-07-28 client sends for tools/list and tools/call. */
async function captureModernRequests(base: string): Promise<Raw[]> {
  const captured: Raw[] = [];
  const record: typeof fetch = async (input, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      captured.push({ headers, body: JSON.parse(init.body) as Record<string, unknown> });
    }
    return fetch(input, init);
  };
  const client = new ModernClient({ name: 'fast-path-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(`${base}/mcp`), { fetch: record }));
  await client.listTools();
  expect((await client.callTool({ name: 'list_projects', arguments: {} })).isError).toBeFalsy();
  await client.close();
  return captured;
}

async function send(base: string, raw: Raw, patch: { headers?: Record<string, string>; params?: Record<string, unknown> } = {}) {
  const payload = patch.params ? { ...raw.body, params: { ...(raw.body.params as object), ...patch.params } } : raw.body;
  const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...raw.headers, ...patch.headers }, body: JSON.stringify(payload) });
  const text = await res.text();
  // An SSE answer (the SDK's, with a progress token) is compared as its data lines.
  const body: unknown = res.headers.get('content-type')?.startsWith('application/json')
    ? JSON.parse(text)
    : text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as unknown);
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
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SECRETS_KEY: TEST_SECRETS_KEY, LOG_LEVEL: 'silent' });
    const app = await createServiceApp({ config, db: db.db, logger: createLogger({ level: 'silent' }), mcpFastPath: false });
    sdk = { app, url: await app.listen(), db, dataDir };
    for (const url of [fast.url, sdk.url]) {
      const created = await api(`${url}/api/projects`, { method: 'POST', json: { id: 'proj_fast', name: 'Fast path' } });
      expect(created.status).toBe(201);
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

  it('tools/call of a read-only tool: same answer (envelope, structuredContent, _meta)', async () => {
    const a = await send(fast.url, byMethod('tools/call'));
    const b = await send(sdk.url, byMethod('tools/call'));
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.chunked).toBe(false);
    expect(JSON.stringify(a.body)).toContain('proj_fast');
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

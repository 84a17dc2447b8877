import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes, type RegisteredRoute } from '../../src/platform/http/app.js';
import { connectModern } from '../support/mcp-clients.js';
import { rawMcp } from '../support/raw-mcp.js';
import { startService, type RunningService } from '../support/service.js';
import { fillPath, SIGNED_WEBHOOK_URLS, TRANSPORT_URLS, uniqueRoutes } from '../support/auth/matrix.js';

const TOKEN = 'static-token-for-the-mode-matrix-0123456789';

async function send(base: string, route: RegisteredRoute, authorization?: string): Promise<number> {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const write = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  // The first type the route takes (the route table says; JSON for all but raw-body routes).
  if (write) headers['content-type'] = route.writes?.accepts[0] ?? 'application/json';
  const res = await fetch(`${base}${fillPath(route.url, 'proj_demo')}`, {
    method: route.method,
    headers,
    body: write ? '{}' : undefined,
  });
  await res.arrayBuffer();
  return res.status;
}

describe('static mode: one shared token, the caller is the operator', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService('pglite', {
      demo: true,
      env: { SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: TOKEN, FX_RATES_URL: 'http://127.0.0.1:9/no-feed' },
    });
  });
  afterAll(async () => service?.close());

  it('every non-public route: no header, a malformed header and a wrong token → 401; the token → never 401/403', async () => {
    const failures: string[] = [];
    for (const route of uniqueRoutes(registeredRoutes(service.app.http))) {
      const label = `${route.method} ${route.url}`;
      if ('public' in route.rule) continue;
      for (const bad of [undefined, 'Token abc', `Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}${TOKEN}`]) {
        const status = await send(service.url, route, bad);
        if (status !== 401) failures.push(`${label} with ${bad ?? 'no header'}: ${status}`);
      }
      if (TRANSPORT_URLS.has(route.url)) continue;
      const status = await send(service.url, route, `Bearer ${TOKEN}`);
      if (status === 401 || status === 403 || status === 500) failures.push(`${label} with the token: ${status}`);
    }
    expect(failures).toEqual([]);
  });

  it('MCP: the operator sees and may call every tool', async () => {
    expect((await rawMcp(service.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(401);
    const client = await connectModern(service.url, TOKEN, { apps: true });
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const tool of service.app.registry.tools) expect(names).toContain(tool.name);
    await client.close();
  });
});

describe('disabled mode: no header needed, the caller is the local operator', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService('pglite', { env: { FX_RATES_URL: 'http://127.0.0.1:9/no-feed' } });
  });
  afterAll(async () => service?.close());

  it('no route answers 401 or 403 without a header', async () => {
    const failures: string[] = [];
    for (const route of uniqueRoutes(registeredRoutes(service.app.http))) {
      if (TRANSPORT_URLS.has(route.url)) continue;
      const status = await send(service.url, route);
      // A signed webhook checks its own signature in every mode: unsigned, it is the route's own 401.
      if (SIGNED_WEBHOOK_URLS.has(route.url)) {
        if (status !== 401) failures.push(`${route.method} ${route.url}: unsigned webhook answered ${status}`);
        continue;
      }
      if (status === 401 || status === 403 || status === 500) failures.push(`${route.method} ${route.url}: ${status}`);
    }
    expect(failures).toEqual([]);
  });
});

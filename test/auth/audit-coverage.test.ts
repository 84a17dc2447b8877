import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/platform/http/app.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { fillPath, type resultCode, TRANSPORT_URLS, uniqueRoutes } from '../support/auth/matrix.js';
import { sampleInput } from '../support/auth/samples.js';

const TOKEN = 'static-token-for-the-audit-coverage-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

interface Entry {
  id: number;
  request_id: string;
  action: string;
  actor: { subject: string };
}

describe.each(STORES)('every successful write is audited, REST and MCP, whichever module serves it [%s]', (store) => {
  let service: RunningService;
  const newest = async (): Promise<Entry[]> =>
    (await api(`${service.url}/api/org/audit?limit=500`, { headers: auth })).body.entries;
  const newSince = async (id: number) => (await newest()).filter((e) => e.id > id);

  beforeAll(async () => {
    service = await startService(store, {
      demo: true,
      env: { SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: TOKEN, FX_RATES_URL: 'http://127.0.0.1:9/no-feed' },
    });
  });
  afterAll(async () => service?.close());

  it('REST: each write that succeeds leaves exactly one entry with its request id', async () => {
    const failures: string[] = [];
    let succeeded = 0;
    for (const route of uniqueRoutes(registeredRoutes(service.app.http))) {
      if (
        !['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) ||
        TRANSPORT_URLS.has(route.url) ||
        'public' in route.rule
      )
        continue;
      const before = (await newest())[0]?.id ?? 0;
      const write = route.method !== 'DELETE';
      const res = await fetch(`${service.url}${fillPath(route.url, 'proj_demo')}`, {
        method: route.method,
        headers: { ...auth, ...(write ? { 'content-type': 'application/json' } : {}) },
        body: write ? '{}' : undefined,
      });
      await res.arrayBuffer();
      if (res.status >= 400) continue;
      succeeded += 1;
      const rid = res.headers.get('x-request-id')!;
      const mine = (await newSince(before)).filter((e) => e.request_id === rid);
      if (mine.length !== 1)
        failures.push(`${route.method} ${route.url} → ${res.status}: ${mine.length} audit entries for ${rid}`);
      else if (mine[0]!.actor.subject !== 'operator')
        failures.push(`${route.method} ${route.url}: audited as ${mine[0]!.actor.subject}`);
    }
    expect(failures).toEqual([]);
    expect(succeeded).toBeGreaterThan(0);
  });

  it('MCP: each tool that is not read-only leaves an entry when it succeeds', async () => {
    const client = await connectModern(service.url, TOKEN);
    const failures: string[] = [];
    let succeeded = 0;
    try {
      for (const tool of service.app.registry.tools.filter((t) => !t.annotations.readOnlyHint)) {
        const before = (await newest())[0]?.id ?? 0;
        const args = sampleInput(tool.input, { project_id: 'proj_demo', $string: 'auditmark' });
        const result = (await client.callTool({ name: tool.name, arguments: args.value })) as Parameters<
          typeof resultCode
        >[0];
        if (result.isError) continue;
        succeeded += 1;
        const entries = await newSince(before);
        if (process.env.AUDIT_DEBUG)
          console.log(
            tool.name,
            entries.map((e) => e.action),
          );
        if (entries.length === 0) failures.push(`${tool.name} succeeded without an audit entry`);
        if (entries.some((e) => !e.request_id || e.actor.subject !== 'operator'))
          failures.push(`${tool.name}: entry without request id or actor`);
      }
    } finally {
      await client.close();
    }
    expect(failures).toEqual([]);
    expect(succeeded).toBeGreaterThan(0);
  });
});

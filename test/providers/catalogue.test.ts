import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

describe.each(STORES)('GET /api/providers [%s]', (store) => {
  let service: RunningService;
  const token = 'catalogue-token-0123456789abcdef';
  beforeAll(async () => {
    service = await startService(store, { env: { SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: token } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('lists every provider with JSON Schemas of its config and secrets, and only to a caller', async () => {
    expect((await api(`${service.url}/api/providers`)).status).toBe(401);
    const res = await api(`${service.url}/api/providers`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const byName = new Map(
      (res.body.providers as { name: string; config_schema: Record<string, unknown> }[]).map((p) => [p.name, p]),
    );
    for (const name of ['demo', 'csv', 'http_json', 'postgres', 'duckdb']) expect(byName.has(name), name).toBe(true);
    for (const p of byName.values()) {
      expect(p).toMatchObject({ description: expect.any(String), secrets_schema: { type: 'object' } });
      expect(p.config_schema.type, p.name).toBe('object');
    }
    expect(byName.get('duckdb')).toMatchObject({
      nango: false,
      config_schema: { required: expect.arrayContaining(['path', 'mapping']), additionalProperties: false },
    });
    expect(byName.get('http_json')).toMatchObject({ nango: true });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { type NangoServer, startNangoServer } from '../support/nango-server.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { createProject } from '../support/flows.js';
import { ADS } from '../support/sources/google-ads-server.js';
import { META_ACCOUNT } from '../support/sources/meta-server.js';

const P = 'proj_nango_sources';

/**
 * The three OAuth sources taking their tokens from Nango: when Nango cannot refresh a connection
 * any more (its connection endpoint answers 424 invalid_credentials), verify calls the connection
 * expired, never a plain error, and names Nango as the place to reconnect it.
 */
const SOURCES = [
  {
    provider: 'google_ads',
    key: 'google-ads',
    config: (url: string) => ({ customer_id: ADS.customer, api_base_url: url }),
    secrets: { developer_token: ADS.developerToken },
  },
  {
    provider: 'meta_ads',
    key: 'facebook',
    config: (url: string) => ({ ad_account_id: META_ACCOUNT, api_base_url: url }),
    secrets: undefined,
  },
  {
    provider: 'bigquery',
    key: 'google-cloud',
    config: (url: string) => ({
      api_base_url: url,
      project: 'proj-nango',
      query: 'SELECT * FROM t WHERE day BETWEEN @from AND @to',
      mapping: { date: 'day', campaign_id: 'campaign_id', spend: 'spend' },
      defaults: { channel: 'search', currency: 'EUR' },
    }),
    secrets: undefined,
  },
];

describe.each(STORES)('sources whose tokens Nango holds [%s]', (store) => {
  let service: RunningService;
  let nango: NangoServer;
  const clock = new ManualClock('2026-05-18T09:00:00Z');

  beforeAll(async () => {
    nango = await startNangoServer({ pages: 1 });
    service = await startService(store, {
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', NANGO_URL: nango.url, NANGO_SECRET_KEY: nango.secretKey },
    });
    await createProject(service, P, 'EUR');
  });
  afterAll(async () => {
    await service?.close();
    await nango?.close();
  });

  it.each(SOURCES)('$provider: a 424 from Nango (refresh failed upstream) makes verify answer expired', async (s) => {
    const ref = `${s.provider}-nango`;
    nango.connections.set(`${s.key}/${ref}`, { exhausted: true });
    const created = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: s.provider,
        connection_ref_id: ref,
        // Nothing listens there: an expired grant must be told before any call to the platform.
        config: { ...s.config('http://127.0.0.1:1'), nango: { provider_config_key: s.key } },
        ...(s.secrets ? { secrets: s.secrets } : {}),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const before = nango.requests.length;
    const verified = await api(`${service.url}/api/credentials/verify`, {
      method: 'POST',
      json: { project_id: P, provider: s.provider, connection_ref_id: ref },
    });
    expect(verified.body).toMatchObject({ status: 'expired', token_check: { ok: false }, connectivity: { ok: false } });
    expect(verified.body.token_check.reason).toMatch(
      /Nango cannot refresh this connection \(invalid_credentials\).*reconnect it in Nango/,
    );
    expect(nango.requests.slice(before).map((r) => r.status)).toContain(424);
    const listed = await api(`${service.url}/api/credentials/list?project_id=${P}&limit=200`);
    const card = listed.body.connections.find((c: { connection_ref_id: string }) => c.connection_ref_id === ref);
    expect(card.status).toBe('expired');
    expect(JSON.stringify(listed.body)).not.toContain(nango.secretKey);
    expect(JSON.stringify(verified.body)).not.toContain(nango.secretKey);
  });
});

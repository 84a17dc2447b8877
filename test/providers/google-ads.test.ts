import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/modules/providers/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { awaitRun, createProject } from '../support/flows.js';
import { api, startService, type RunningService } from '../support/service.js';
import { campaignDays, totalsByDay } from '../support/sources/campaign-days.js';
import { ADS, type GoogleAdsServer, startGoogleAdsServer } from '../support/sources/google-ads-server.js';
import { expectSameTotals, storedTotals } from '../support/sources/stored-totals.js';
import { STORES } from '../support/stores.js';

const P = 'proj_google_ads';
const TODAY = '2026-05-18';
const START = addDays(TODAY, -399);
const CAMPAIGNS = 5;
const secrets = {
  developer_token: ADS.developerToken,
  client_id: ADS.clientId,
  client_secret: ADS.clientSecret,
  refresh_token: ADS.refreshToken,
};

describe.each(STORES)('google_ads provider [%s]', (store) => {
  let service: RunningService;
  let ads: GoogleAdsServer;
  const clock = new ManualClock(`${TODAY}T09:00:00Z`);
  const config = (extra: Record<string, unknown> = {}) => ({
    customer_id: '123-456-7890',
    login_customer_id: '987-654-3210',
    api_base_url: `${ads.url}/`,
    token_url: `${ads.url}/token`,
    ...extra,
  });
  const connect = (ref: string, cfg: Record<string, unknown>, s: unknown = secrets) =>
    api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider: 'google_ads', connection_ref_id: ref, config: cfg, secrets: s },
    });
  const verify = async (ref: string) =>
    (
      await api(`${service.url}/api/credentials/verify`, {
        method: 'POST',
        json: { project_id: P, provider: 'google_ads', connection_ref_id: ref },
      })
    ).body;
  const run = async (id: string) => {
    const queued = await api(`${service.url}/api/flows/${id}/run`, { method: 'POST' });
    return awaitRun(service, P, queued.body.id);
  };

  beforeAll(async () => {
    ads = await startGoogleAdsServer();
    service = await startService(store, { clock, env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
    await createProject(service, P, 'EUR');
  });
  afterAll(async () => {
    await service?.close();
    await ads?.close();
  });

  it('refuses a bad customer id and missing secrets naming the field, echoing no secret', async () => {
    const res = await connect('bad', config({ customer_id: '12-34' }), { developer_token: 'short' });
    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(['config.customer_id', 'secrets.developer_token', 'secrets.refresh_token']),
    );
    expect(JSON.stringify(res.body)).not.toContain('short');
  });

  it('verifies: active, a manager account without login_customer_id, a revoked grant, an unreachable API', async () => {
    expect((await connect('ads', config())).status).toBe(200);
    expect(await verify('ads')).toMatchObject({
      status: 'active',
      connectivity: { ok: true, reason: 'customer 1234567890 answered (currency EUR)' },
    });
    await connect('ads-no-mcc', config({ login_customer_id: undefined }));
    const denied = await verify('ads-no-mcc');
    expect(denied.status).toBe('error');
    expect(denied.connectivity.reason).toMatch(/403 .*USER_PERMISSION_DENIED.*set login_customer_id to the manager/);
    await connect('ads-gone', config({ api_base_url: 'http://127.0.0.1:1' }));
    const gone = await verify('ads-gone');
    expect(gone.status).toBe('error');
    expect(gone.connectivity.reason).toMatch(/connection refused|port/);
    ads.refreshRevoked = true;
    await connect('ads-revoked', config());
    expect(await verify('ads-revoked')).toMatchObject({ status: 'expired', token_check: { ok: false } });
    ads.refreshRevoked = false;
    const listed = JSON.stringify((await api(`${service.url}/api/credentials/list?project_id=${P}`)).body);
    for (const s of Object.values(secrets)) expect(listed).not.toContain(s);
  });

  it('backfills 400 days in slices of at most 7 days, each date once, waiting out RESOURCE_EXHAUSTED as RetryInfo says', async () => {
    ads.data = { from: START, to: TODAY, campaigns: CAMPAIGNS, version: () => 0 };
    ads.quotaOnce = 1;
    ads.datesAsked.clear();
    const reportsBefore = ads.reports;
    const servedBefore = ads.served;
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name: 'Google Ads',
          connection_ref_id: 'ads',
          provider: 'google_ads',
          cadence: 'manual',
          retrieval_window: { lookback_days: 7, start_date: START },
        },
      },
    });
    const started = performance.now();
    const first = await run(ds.body.datastream.id);
    expect(first).toMatchObject({ status: 'succeeded', window: { from: START, to: TODAY } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    // The one RESOURCE_EXHAUSTED said retryDelay 1s: the run waited exactly that on its source.
    expect(first.source_wait_ms).toBe(1000);
    const records = campaignDays(START, TODAY, CAMPAIGNS);
    expect(ads.served - servedBefore).toBe(records.length);
    expect(first.rows_read).toBe(records.length);
    // One day first (how many rows a day holds), then 7-day slices: 5 campaigns are far below answer_rows.
    expect(ads.reports - reportsBefore).toBe(1 + Math.ceil(399 / 7));
    expect(ads.datesAsked.size).toBe(400);
    expect([...ads.datesAsked.values()].every((n) => n === 1)).toBe(true);
    expectSameTotals(await storedTotals(service, P), totalsByDay(records));
    const channels = await service.app.db.query<{ channel: string }>(
      'SELECT DISTINCT channel FROM ad_performance_daily WHERE project_id = $1 ORDER BY channel',
      [P],
    );
    expect(channels.map((c) => c.channel)).toEqual(['display', 'paid_search', 'performance_max', 'shopping', 'video']);

    ads.data = { ...ads.data, version: (d) => (d > addDays(TODAY, -3) ? 1 : 0) };
    const second = await run(ds.body.datastream.id);
    expect(second).toMatchObject({ status: 'succeeded', window: { from: addDays(TODAY, -6), to: TODAY } });
    expect(second.rows_read).toBe(7 * CAMPAIGNS);
    expect(second.source_wait_ms).toBe(0);
    expectSameTotals(
      await storedTotals(service, P),
      totalsByDay(campaignDays(START, TODAY, CAMPAIGNS, ads.data.version)),
    );
  });
  it('sizes slices in rows: an account with more rows a day than answer_rows allows gets fewer days per request', async () => {
    const project = 'proj_google_ads_rows';
    await createProject(service, project, 'EUR');
    const from = addDays(TODAY, -29);
    ads.data = { from: START, to: TODAY, campaigns: CAMPAIGNS, version: () => 0 };
    ads.datesAsked.clear();
    const reportsBefore = ads.reports;
    const created = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: project,
        provider: 'google_ads',
        connection_ref_id: 'ads-rows',
        config: config({ answer_rows: 12 }),
        secrets,
      },
    });
    expect(created.status).toBe(200);
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: project,
        kind: 'datastream',
        definition: {
          name: 'Google Ads by rows',
          connection_ref_id: 'ads-rows',
          provider: 'google_ads',
          cadence: 'manual',
          retrieval_window: { lookback_days: 7, start_date: from },
        },
      },
    });
    const queued = await api(`${service.url}/api/flows/${ds.body.datastream.id}/run`, { method: 'POST' });
    const done = await awaitRun(service, project, queued.body.id);
    expect(done).toMatchObject({ status: 'succeeded', window: { from, to: TODAY }, rows_read: 30 * CAMPAIGNS });
    // One day (5 rows), then floor(12 / 5) = 2 days per request for the 29 days left.
    expect(ads.reports - reportsBefore).toBe(1 + Math.ceil(29 / 2));
    expect(ads.datesAsked.size).toBe(30);
    expect([...ads.datesAsked.values()].every((n) => n === 1)).toBe(true);
    expectSameTotals(await storedTotals(service, project), totalsByDay(campaignDays(from, TODAY, CAMPAIGNS)));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, timestampOfMicros } from '../../src/modules/providers/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { awaitRun, createProject } from '../support/flows.js';
import { api, startService, type RunningService } from '../support/service.js';
import { type BigQueryServer, startBigQueryServer } from '../support/sources/bigquery-server.js';
import { campaignDays, totalsByDay } from '../support/sources/campaign-days.js';
import { expectSameTotals, storedTotals } from '../support/sources/stored-totals.js';
import { STORES } from '../support/stores.js';

const P = 'proj_bigquery';
const TODAY = '2026-05-18';
const START = addDays(TODAY, -399);
const CAMPAIGNS = 4;
const mapping = {
  date: 'day',
  campaign_id: 'campaign.id',
  campaign_name: 'campaign.name',
  channel: 'channel',
  currency: 'currency',
  spend: 'spend',
  impressions: 'impressions',
  clicks: 'clicks',
  conversions: 'conversions',
  revenue: 'revenue',
};
const query = 'SELECT * FROM `ads.campaign_days` WHERE day BETWEEN @from AND @to';

it('turns int64 microseconds into an exact ISO instant', () => {
  expect(timestampOfMicros('1747571696123456')).toBe('2025-05-18T12:34:56.123456Z');
  expect(timestampOfMicros('-1')).toBe('1969-12-31T23:59:59.999999Z');
});

describe.each(STORES)('bigquery provider [%s]', (store) => {
  let service: RunningService;
  let bq: BigQueryServer;
  const clock = new ManualClock(`${TODAY}T09:00:00Z`);
  const config = () => ({ api_base_url: bq.url, project: 'acme-ads', location: 'EU', query, mapping, page_rows: 1000 });
  const connect = (ref: string, cfg: Record<string, unknown>, secrets: unknown) =>
    api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider: 'bigquery', connection_ref_id: ref, config: cfg, secrets },
    });
  const verify = async (ref: string) =>
    (
      await api(`${service.url}/api/credentials/verify`, {
        method: 'POST',
        json: { project_id: P, provider: 'bigquery', connection_ref_id: ref },
      })
    ).body;
  const run = async (id: string) => {
    const queued = await api(`${service.url}/api/flows/${id}/run`, { method: 'POST' });
    return awaitRun(service, P, queued.body.id);
  };

  beforeAll(async () => {
    bq = await startBigQueryServer({ location: 'EU', project: 'acme-ads', now: () => clock.now() });
    service = await startService(store, {
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_RETRY_BASE_MS: '10' },
    });
    await createProject(service, P, 'EUR');
  });
  afterAll(async () => {
    await service?.close();
    await bq?.close();
  });

  it('refuses a query without @from/@to and a key that is not one, naming the field and echoing nothing', async () => {
    const noParams = await connect(
      'bad',
      { ...config(), query: 'SELECT * FROM ads' },
      {
        service_account_json: JSON.stringify(bq.key),
      },
    );
    expect(noParams.status).toBe(400);
    expect(noParams.body.errors.map((e: { path: string }) => e.path)).toContain('config.query');
    for (const json of ['{not json', JSON.stringify({ ...bq.key, private_key: undefined })]) {
      const res = await connect('bad', config(), { service_account_json: json });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['secrets.service_account_json']);
      expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
      expect(JSON.stringify(res.body)).not.toContain('{not json');
    }
  });

  it('verifies with a JWT bearer grant and a dry run that reports the bytes it would scan', async () => {
    expect((await connect('bq', config(), { service_account_json: JSON.stringify(bq.key) })).status).toBe(200);
    expect(await verify('bq')).toMatchObject({
      status: 'active',
      token_check: { ok: true, reason: 'access token issued for the service account' },
      connectivity: { ok: true, reason: 'dry run: the query would scan 1.2 GB (1,234,567,890 bytes)' },
    });
    const listed = await api(`${service.url}/api/credentials/list?project_id=${P}`);
    expect(JSON.stringify(listed.body)).not.toContain('PRIVATE KEY');
  });

  it('backfills 400 days page by page, every date once, exact totals, through a rate limit and a revoked token', async () => {
    bq.data = { from: START, to: TODAY, campaigns: CAMPAIGNS, version: () => 0 };
    bq.rateLimits = 1;
    bq.revokeOnce = true;
    const servedBefore = bq.served;
    const issuedBefore = bq.tokensIssued;
    bq.requests.length = 0;
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name: 'BigQuery',
          connection_ref_id: 'bq',
          provider: 'bigquery',
          cadence: 'manual',
          retrieval_window: { lookback_days: 7, start_date: START },
        },
      },
    });
    const first = await run(ds.body.datastream.id);
    expect(first).toMatchObject({ status: 'succeeded', window: { from: START, to: TODAY } });
    const records = campaignDays(START, TODAY, CAMPAIGNS);
    expect(bq.served - servedBefore).toBe(records.length);
    expect(first.rows_read).toBe(records.length);
    expectSameTotals(await storedTotals(service, P), totalsByDay(records));
    // The job was polled until complete, then read in pages of 1,000; location on every GET.
    const gets = bq.requests.filter((r) => r.startsWith('GET '));
    expect(gets.length).toBeGreaterThanOrEqual(Math.ceil(records.length / 1000) + 2);
    for (const r of gets) expect(r).toContain('location=EU');
    // The 401 mid-run was answered with one renewal; the token endpoint was asked once for it.
    expect(bq.tokensIssued - issuedBefore).toBe(1);

    bq.data = { ...bq.data, version: (d) => (d > addDays(TODAY, -3) ? 1 : 0) };
    const second = await run(ds.body.datastream.id);
    expect(second).toMatchObject({ status: 'succeeded', window: { from: addDays(TODAY, -6), to: TODAY } });
    expect(second.rows_read).toBe(7 * CAMPAIGNS);
    expectSameTotals(
      await storedTotals(service, P),
      totalsByDay(campaignDays(START, TODAY, CAMPAIGNS, bq.data.version)),
    );
  });

  it('tells a wrong location, a deleted key and an unreachable server apart', async () => {
    await connect('bq-us', { ...config(), location: 'US' }, { service_account_json: JSON.stringify(bq.key) });
    const wrong = await verify('bq-us');
    expect(wrong.status).toBe('error');
    expect(wrong.connectivity.reason).toMatch(/HTTP 404 from BigQuery notFound: .*is location set/);
    bq.keyDeleted = true;
    const expired = await verify('bq');
    expect(expired).toMatchObject({ status: 'expired', token_check: { ok: false } });
    expect(expired.token_check.reason).toMatch(/invalid_grant.*service account key was refused/);
    bq.keyDeleted = false;
    await connect(
      'bq-gone',
      { ...config(), api_base_url: 'http://127.0.0.1:1', token_url: `${bq.url}/token` },
      {
        service_account_json: JSON.stringify(bq.key),
      },
    );
    const gone = await verify('bq-gone');
    expect(gone.status).toBe('error');
    expect(gone.connectivity.reason).toMatch(/connection refused|port/);
  });
});

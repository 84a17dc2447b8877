import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/modules/providers/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { awaitRun, createProject } from '../support/flows.js';
import { api, startService, type RunningService } from '../support/service.js';
import { campaignDays, totalsByDay } from '../support/sources/campaign-days.js';
import { META_ACCOUNT, type MetaServer, startMetaServer } from '../support/sources/meta-server.js';
import { expectSameTotals, storedTotals } from '../support/sources/stored-totals.js';
import { STORES } from '../support/stores.js';

const P = 'proj_meta';
const TODAY = '2026-05-18';
const START = addDays(TODAY, -399);
const CAMPAIGNS = 3;

describe.each(STORES)('meta_ads provider [%s]', (store) => {
  let service: RunningService;
  let meta: MetaServer;
  const clock = new ManualClock(`${TODAY}T09:00:00Z`);
  const config = (extra: Record<string, unknown> = {}) => ({
    ad_account_id: `act_${META_ACCOUNT}`,
    api_base_url: meta.url,
    page_size: 25,
    window_days: 30,
    ...extra,
  });
  const connect = (ref: string, cfg: Record<string, unknown>, token = meta.token) =>
    api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'meta_ads',
        connection_ref_id: ref,
        config: cfg,
        secrets: { access_token: token },
      },
    });
  const verify = async (ref: string) =>
    (
      await api(`${service.url}/api/credentials/verify`, {
        method: 'POST',
        json: { project_id: P, provider: 'meta_ads', connection_ref_id: ref },
      })
    ).body;
  const datastream = async (ref: string) =>
    (
      await api(`${service.url}/api/flows/upsert`, {
        method: 'POST',
        json: {
          project_id: P,
          kind: 'datastream',
          definition: {
            name: ref,
            connection_ref_id: ref,
            provider: 'meta_ads',
            cadence: 'manual',
            retrieval_window: { lookback_days: 7, start_date: START },
          },
        },
      })
    ).body.datastream.id as string;
  const run = async (id: string) => {
    const queued = await api(`${service.url}/api/flows/${id}/run`, { method: 'POST' });
    return awaitRun(service, P, queued.body.id);
  };

  beforeAll(async () => {
    meta = await startMetaServer();
    service = await startService(store, {
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_RETRY_BASE_MS: '10', OUTBOUND_RETRY_MAX_SECONDS: '2' },
    });
    await createProject(service, P, 'EUR');
  });
  afterAll(async () => {
    await service?.close();
    await meta?.close();
  });

  it('verifies: active, expired on code 190, error when unreachable; a bad account id is a 400', async () => {
    const bad = await connect('bad', config({ ad_account_id: 'act_x' }), 'short');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['config.ad_account_id', 'secrets.access_token']),
    );
    await connect('meta', config());
    expect(await verify('meta')).toMatchObject({
      status: 'active',
      token_check: { ok: true, reason: `ad account act_${META_ACCOUNT} readable (currency EUR)` },
      connectivity: { ok: true },
    });
    await connect('meta-revoked', config(), 'EAArevokedtoken0123456789');
    const revoked = await verify('meta-revoked');
    expect(revoked).toMatchObject({ status: 'expired', token_check: { ok: false } });
    expect(revoked.token_check.reason).toMatch(/code 190, subcode 467/);
    await connect('meta-gone', config({ api_base_url: 'http://127.0.0.1:1' }));
    const gone = await verify('meta-gone');
    expect(gone.status).toBe('error');
    expect(gone.token_check.reason).toMatch(/connection refused|port/);
    const listed = JSON.stringify((await api(`${service.url}/api/credentials/list?project_id=${P}`)).body);
    expect(listed).not.toContain(meta.token);
  });

  it('backfills 400 days following its own cursors, counting each purchase once, through a throttle', async () => {
    meta.data = { from: START, to: TODAY, campaigns: CAMPAIGNS, version: () => 0 };
    meta.throttleOnce = true;
    meta.requests.length = 0;
    const before = meta.served;
    const id = await datastream('meta');
    const first = await run(id);
    expect(first).toMatchObject({ status: 'succeeded', window: { from: START, to: TODAY } });
    const records = campaignDays(START, TODAY, CAMPAIGNS);
    expect(meta.served - before).toBe(records.length);
    expect(first.rows_read).toBe(records.length);
    expectSameTotals(await storedTotals(service, P), totalsByDay(records));
    // Every request was to the server's own origin path with the token in no URL.
    for (const r of meta.requests) {
      expect(r).not.toContain('access_token');
      expect(r.startsWith(`/v27.0/act_${META_ACCOUNT}`)).toBe(true);
    }
    expect(meta.requests.filter((r) => r.includes('after=')).length).toBeGreaterThan(0);

    meta.data = { ...meta.data, version: (d) => (d > addDays(TODAY, -3) ? 1 : 0) };
    const second = await run(id);
    expect(second).toMatchObject({ status: 'succeeded', window: { from: addDays(TODAY, -6), to: TODAY } });
    expect(second.rows_read).toBe(7 * CAMPAIGNS);
    expectSameTotals(
      await storedTotals(service, P),
      totalsByDay(campaignDays(START, TODAY, CAMPAIGNS, meta.data.version)),
    );
  });

  it('slows down when usage climbs and marks the connection expired when the token dies mid-run', async () => {
    await connect('meta-slices', config({ window_days: 4 }));
    const slices = await datastream('meta-slices');
    expect((await run(slices)).status).toBe('succeeded'); // the backfill, at low usage
    meta.usagePct = 80;
    const started = performance.now();
    const slow = await run(slices);
    expect(slow.status).toBe('succeeded');
    // 7 days in 4-day slices is two requests: one pause before the second, of (80-75)/15 × 10 s ≈ 3.3 s
    // bounded by the 2 s retry bound.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2000);
    // The one pause, as the usage header asked and the retry bound cut it, is what the run waited.
    expect(slow.source_wait_ms).toBe(2000);
    meta.usagePct = 10;
    meta.revokeAfter = 1;
    const failed = await run(await datastream('meta'));
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/code 190/);
    const listed = await api(`${service.url}/api/credentials/list?project_id=${P}`);
    const row = listed.body.connections.find((c: { connection_ref_id: string }) => c.connection_ref_id === 'meta');
    expect(row.status).toBe('expired');
    meta.revokeAfter = 0;
  });
});

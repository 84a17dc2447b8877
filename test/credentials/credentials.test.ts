import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { SecretBox } from '../../src/modules/credentials/index.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { CLIENT, fakeRows, GOOD_REFRESH, startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { awaitRun, createProject, seedRates } from '../support/flows.js';

const P = 'proj_creds';

describe.each(STORES)('connections, verification and the http_json provider [%s]', (store) => {
  let service: RunningService;
  let fake: FakeProvider;
  const clock = new ManualClock('2026-05-18T09:00:00Z');
  const config = (base: string, extra: Record<string, unknown> = {}) => ({
    url: `${base}/v1/stats`,
    token_url: `${base}/oauth/token`,
    grant_type: 'refresh_token',
    records_path: 'result.rows',
    pagination: { type: 'cursor', cursor_param: 'after', next_cursor_path: 'paging.next' },
    window_params: { from: 'since', to: 'until' },
    window_days: 3,
    mapping: {
      date: 'day',
      campaign_id: 'campaign.id',
      campaign_name: 'campaign.name',
      channel: 'network',
      currency: 'cur',
      spend: 'metrics.cost',
      impressions: 'metrics.imps',
      clicks: 'metrics.clicks',
      conversions: 'metrics.conv',
      revenue: 'metrics.value',
    },
    ...extra,
  });
  const upsert = (ref: string, cfg: unknown, secrets?: unknown) =>
    api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'http_json',
        connection_ref_id: ref,
        config: cfg,
        ...(secrets ? { secrets } : {}),
      },
    });
  const verify = (ref: string) =>
    api(`${service.url}/api/credentials/verify`, {
      method: 'POST',
      json: { project_id: P, provider: 'http_json', connection_ref_id: ref },
    });

  beforeAll(async () => {
    fake = await startFakeProvider();
    service = await startService(store, {
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_RETRY_BASE_MS: '5' },
    });
    await createProject(service, P, 'USD');
    await seedRates(service, [['USD', '2026-05-08', 1.12]]);
  });
  afterAll(async () => {
    await service?.close();
    await fake?.close();
  });

  it('stores secrets encrypted and never answers them', async () => {
    const res = await upsert('fake-ads', config(fake.url), { ...CLIENT, refresh_token: GOOD_REFRESH });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      connection_ref_id: 'fake-ads',
      provider: 'http_json',
      status: 'active',
      has_secrets: true,
      integration_url: null,
    });
    const text =
      JSON.stringify(res.body) +
      JSON.stringify((await api(`${service.url}/api/credentials/list?project_id=${P}`)).body);
    expect(text).not.toContain(CLIENT.client_secret);
    expect(text).not.toContain(GOOD_REFRESH);
    const [row] = await service.app.db.query<{ secrets_ciphertext: Uint8Array }>(
      'SELECT secrets_ciphertext FROM connections WHERE connection_ref_id = $1',
      ['fake-ads'],
    );
    const stored = Buffer.from(row!.secrets_ciphertext);
    expect(stored.toString('latin1')).not.toContain(CLIENT.client_secret);
    expect(service.app.services.credentials.box.open(stored)).toMatchObject({ refresh_token: GOOD_REFRESH });
  });

  it('rejects bad connections with one entry per violation, secrets never echoed', async () => {
    const res = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'http_json',
        connection_ref_id: 'broken',
        config: { url: 'ftp://x', grant_type: 'password', mapping: { date: 'd' } },
        secrets: { client_id: 'a', client_secret: 42 },
      },
    });
    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'config.url',
        'config.token_url',
        'config.grant_type',
        'config.mapping.campaign_id',
        'config.mapping.spend',
        'secrets.client_secret',
      ]),
    );
    const unknown = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider: 'salesforce', connection_ref_id: 'x' },
    });
    expect(unknown.body.errors).toEqual([
      { path: 'provider', message: expect.stringContaining('demo, csv, http_json, postgres') },
    ]);
  });

  it('verifies: a real token request and an API call; stores the outcome', async () => {
    const res = await verify('fake-ads');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'active',
      token_check: { ok: true, reason: 'access token issued' },
      connectivity: { ok: true },
    });
    expect(fake.tokenRequests.at(-1)).toMatchObject({ grant_type: 'refresh_token' });
    const list = await api(`${service.url}/api/credentials/list?project_id=${P}`);
    const c = list.body.connections.find((x: { connection_ref_id: string }) => x.connection_ref_id === 'fake-ads');
    expect(c.last_verified_at).toBe('2026-05-18T09:00:00.000Z');
    expect(c.last_verification.token_check.ok).toBe(true);
  });

  it('explains failures in a 200 answer: expired grant, refused client, DNS, refused connection', async () => {
    await upsert('expired', config(fake.url), { ...CLIENT, refresh_token: 'old-token' });
    const expired = await verify('expired');
    expect(expired.status).toBe(200);
    expect(expired.body.status).toBe('expired');
    expect(expired.body.token_check).toMatchObject({
      ok: false,
      reason: expect.stringContaining('400 from the token endpoint (invalid_grant)'),
    });
    expect(expired.body.connectivity.ok).toBe(false);

    await upsert('bad-client', config(fake.url, { grant_type: 'client_credentials' }), {
      client_id: 'ch-client',
      client_secret: 'wrong',
    });
    const refused = await verify('bad-client');
    expect(refused.body).toMatchObject({
      status: 'error',
      token_check: { ok: false, reason: expect.stringMatching(/^401 from the token endpoint \(invalid_client\)/) },
    });

    await upsert('dns', config('http://no-such-host.invalid', { grant_type: 'client_credentials' }), CLIENT);
    const dns = await verify('dns');
    expect(dns.body.token_check.reason).toMatch(/^DNS: /);

    // A port that was just free: nothing listens there any more.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const freePort = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    await upsert('refused', config(`http://127.0.0.1:${freePort}`, { grant_type: 'client_credentials' }), CLIENT);
    const closed = await verify('refused');
    expect(closed.body.token_check.reason).toMatch(/connection refused/);
    await upsert(
      'slow',
      config(fake.url, { grant_type: 'client_credentials', token_url: `${fake.url}/oauth/slow`, timeout_ms: 300 }),
      CLIENT,
    );
    const slow = await verify('slow');
    expect(slow.body.token_check).toMatchObject({
      ok: false,
      reason: 'the token request: timeout: no answer from 127.0.0.1 within 300 ms (after 5 tries)',
    });
    const list = await api(`${service.url}/api/credentials/list?project_id=${P}`);
    const statuses = Object.fromEntries(
      list.body.connections.map((c: { connection_ref_id: string; status: string }) => [c.connection_ref_id, c.status]),
    );
    expect(statuses).toMatchObject({ expired: 'expired', 'bad-client': 'error', dns: 'error', 'fake-ads': 'active' });
    // Rotating the secrets makes the connection usable again.
    const rotated = await upsert('expired', config(fake.url), { ...CLIENT, refresh_token: GOOD_REFRESH });
    expect(rotated.body).toMatchObject({ status: 'active', last_error: null });
    expect((await verify('expired')).body.status).toBe('active');
  });

  it('ingests through the API: OAuth, cursor pages, a date window per request', async () => {
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name: 'Fake ads',
          connection_ref_id: 'fake-ads',
          provider: 'http_json',
          retrieval_window: { lookback_days: 7 },
        },
      },
    });
    expect(ds.status).toBe(200);
    const before = fake.apiRequests.length;
    const queued = await api(`${service.url}/api/flows/${ds.body.datastream.id}/run`, { method: 'POST' });
    const run = await awaitRun(service, P, queued.body.id);
    expect(run).toMatchObject({ status: 'succeeded', rows_read: fakeRows('2026-05-12', '2026-05-18').length });
    const windows = fake.apiRequests.slice(before).map((q) => `${q.get('since')}..${q.get('until')}`);
    expect([...new Set(windows)]).toEqual([
      '2026-05-12..2026-05-14',
      '2026-05-15..2026-05-17',
      '2026-05-18..2026-05-18',
    ]);
    const kpis = await service.app.db.query<{ channel: string; spend: number; clicks: number }>(
      "SELECT channel, spend, clicks FROM kpis_daily WHERE project_id = $1 AND date = '2026-05-18' ORDER BY channel",
      [P],
    );
    // search: fk-1 (10 USD) + fk-2 (20 EUR → USD at 1.12); social: fk-3 (30 USD).
    expect(kpis.map((k) => [k.channel, Number(k.spend), Number(k.clicks)])).toEqual([
      ['search', Number((10 + 20 * 1.12).toFixed(6)), 150],
      ['social', 30, 150],
    ]);
  });

  it('a run whose grant expired fails with the reason and marks the connection expired', async () => {
    await upsert('soon-expired', config(fake.url), { ...CLIENT, refresh_token: 'revoked-token' });
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name: 'Expired', connection_ref_id: 'soon-expired', provider: 'http_json' },
      },
    });
    const queued = await api(`${service.url}/api/flows/${ds.body.datastream.id}/run`, { method: 'POST' });
    const run = await awaitRun(service, P, queued.body.id, (r) => r.status === 'failed');
    expect(run.error).toMatch(/^400 from the token endpoint \(invalid_grant\)/);
    const list = await api(`${service.url}/api/credentials/list?project_id=${P}`);
    expect(
      list.body.connections.find((c: { connection_ref_id: string }) => c.connection_ref_id === 'soon-expired').status,
    ).toBe('expired');
  });
});

describe('SecretBox key', () => {
  it('generates a 32-byte key into DATA_DIR/secrets.key with mode 0600 and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-key-'));
    const box = new SecretBox({ secretsKey: undefined, databaseUrl: undefined, dataDir: dir });
    const sealed = box.seal({ password: 'p@ss' });
    const file = path.join(dir, 'secrets.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    const again = new SecretBox({ secretsKey: undefined, databaseUrl: undefined, dataDir: dir });
    expect(again.open(sealed)).toEqual({ password: 'p@ss' });
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => again.open(tampered)).toThrow();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

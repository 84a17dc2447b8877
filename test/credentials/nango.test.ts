import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { logCapture } from '../support/log-capture.js';
import { type NangoServer, startNangoServer } from '../support/nango-server.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { awaitRun, createProject } from '../support/flows.js';

const P = 'proj_nango';
const KEY = 'google-ads-prod';

describe.each(STORES)('connections whose credentials Nango holds [%s]', (store) => {
  let service: RunningService;
  let nango: NangoServer;
  const logs = logCapture();
  const clock = new ManualClock('2026-05-18T09:00:00Z');
  const answers: string[] = [];

  const call = async (url: string, init: Parameters<typeof api>[1] = {}) => {
    const res = await api(`${service.url}${url}`, init);
    answers.push(JSON.stringify(res.body));
    return res;
  };
  const connect = (ref: string, extra: Record<string, unknown> = {}) =>
    call('/api/credentials', {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'http_json',
        connection_ref_id: ref,
        config: {
          url: `${nango.url}/v1/records`,
          nango: { provider_config_key: KEY },
          pagination: { type: 'page', page_param: 'page', first_page: 1 },
          mapping: { date: 'day', campaign_id: 'campaign', spend: 'spend' },
          defaults: { channel: 'search', currency: 'EUR' },
        },
        ...extra,
      },
    });
  const verify = (ref: string) =>
    call('/api/credentials/verify', {
      method: 'POST',
      json: { project_id: P, provider: 'http_json', connection_ref_id: ref },
    });
  const card = async (ref: string) =>
    (await call(`/api/credentials/list?project_id=${P}&limit=200`)).body.connections.find(
      (c: { connection_ref_id: string }) => c.connection_ref_id === ref,
    );
  const webhook = (body: string, signature: string | undefined, headers: Record<string, string> = {}) =>
    call('/api/connectors/nango/webhook', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'x-nango-hmac-sha256': signature } : {}),
        ...headers,
      },
      body,
    });

  beforeAll(async () => {
    nango = await startNangoServer({ pages: 4 });
    service = await startService(store, {
      clock,
      env: {
        OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
        NANGO_URL: nango.url,
        NANGO_SECRET_KEY: nango.secretKey,
        LOG_LEVEL: 'debug',
      },
      logDestination: logs.destination,
    });
    await createProject(service, P, 'EUR');
  });
  afterAll(async () => {
    await service?.close();
    await nango?.close();
  });

  it('stores no secrets for a Nango connection, and says where its credentials come from', async () => {
    const refused = await connect('with-secrets', { secrets: { client_id: 'x', client_secret: 'y' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { path: 'secrets', message: 'a connection whose credentials Nango holds stores no secrets here' },
    ]);
    const created = await connect('ads-main');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ has_secrets: false, token: { source: 'nango' }, status: 'active' });
  });

  it('verify asks Nango for the connection with the secret key, then tests the API with that token', async () => {
    nango.connections.set(`${KEY}/ads-main`, { exhausted: false });
    const before = nango.requests.length;
    const res = await verify('ads-main');
    expect(res.body).toMatchObject({
      status: 'active',
      token_check: { ok: true, reason: 'access token from Nango' },
      connectivity: { ok: true },
    });
    expect(nango.requests.slice(before)).toEqual([
      {
        path: '/connections/ads-main',
        authorization: `Bearer ${nango.secretKey}`,
        forceRefresh: false,
        status: 200,
      },
    ]);
    expect((await card('ads-main')).token).toMatchObject({
      source: 'nango',
      expires_at: '2026-05-18T10:00:00.000Z',
      last_refresh_at: '2026-05-18T09:00:00.000Z',
      last_error: null,
    });
  });

  it('a run asks Nango before it reads, and once with force_refresh when the API refuses the token', async () => {
    nango.revokeAfterPage(2);
    const before = nango.requests.length;
    const pagesBefore = nango.pageRequests.length;
    const ds = await call('/api/flows/upsert', {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name: 'Nango ads', connection_ref_id: 'ads-main', provider: 'http_json', cadence: 'manual' },
      },
    });
    const queued = await call(`/api/flows/${ds.body.datastream.id}/run`, { method: 'POST' });
    const run = await awaitRun(service, P, queued.body.id);
    expect(run).toMatchObject({ status: 'succeeded', rows_read: 8 });
    expect(nango.requests.slice(before).map((r) => [r.forceRefresh, r.status])).toEqual([
      [false, 200],
      [true, 200],
    ]);
    expect(nango.pageRequests.slice(pagesBefore).map((p) => `${p.page}:${p.status}`)).toEqual([
      '1:200',
      '2:200',
      '3:401',
      '3:200',
      '4:200',
      '5:200',
    ]);
    const [stored] = await service.app.db.query<{ n: number; d: number }>(
      `SELECT count(*) AS n, count(DISTINCT campaign_id) AS d FROM ad_performance_daily WHERE datastream_id = $1`,
      [ds.body.datastream.id],
    );
    expect(stored).toEqual({ n: 8, d: 8 });
  });

  it('424: expired; 404: no such connection in Nango; 401: the secret key was refused', async () => {
    expect((await connect('exhausted')).status).toBe(200);
    nango.connections.set(`${KEY}/exhausted`, { exhausted: true });
    const expired = await verify('exhausted');
    expect(expired.body).toMatchObject({
      status: 'expired',
      token_check: {
        ok: false,
        reason:
          'Nango cannot refresh this connection (invalid_credentials): The refresh limit has been reached for this ' +
          'connection.; reconnect it in Nango',
      },
      connectivity: { ok: false, reason: 'skipped: no access token' },
    });
    expect((await card('exhausted')).status).toBe('expired');

    expect((await connect('unknown')).status).toBe(200);
    const missing = await verify('unknown');
    expect(missing.body).toMatchObject({
      status: 'error',
      token_check: {
        ok: false,
        reason: 'no such connection in Nango (check connection_ref_id and provider_config_key)',
      },
    });

    const other = await startService(store, {
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', NANGO_URL: nango.url, NANGO_SECRET_KEY: 'a-wrong-key' },
    });
    try {
      await createProject(other, P, 'EUR');
      const created = await api(`${other.url}/api/credentials`, {
        method: 'POST',
        json: {
          project_id: P,
          provider: 'http_json',
          connection_ref_id: 'ads-main',
          config: {
            url: `${nango.url}/v1/records`,
            nango: { provider_config_key: KEY },
            mapping: { date: 'day', campaign_id: 'campaign', spend: 'spend' },
            defaults: { channel: 'search', currency: 'EUR' },
          },
        },
      });
      expect(created.status).toBe(200);
      const refused = await api(`${other.url}/api/credentials/verify`, {
        method: 'POST',
        json: { project_id: P, provider: 'http_json', connection_ref_id: 'ads-main' },
      });
      expect(refused.body).toMatchObject({
        status: 'error',
        token_check: { ok: false, reason: 'the Nango secret key was refused (NANGO_SECRET_KEY)' },
      });
      expect(nango.requests.at(-1)).toMatchObject({ status: 401, authorization: 'Bearer a-wrong-key' });
    } finally {
      await other.close();
    }
  });

  it('a signed auth webhook marks a failed refresh expired with the reason; anything else is a 401', async () => {
    const event = JSON.stringify({
      type: 'auth',
      operation: 'refresh',
      connectionId: 'ads-main',
      authMode: 'OAUTH2',
      providerConfigKey: KEY,
      provider: 'google-ads',
      environment: 'PROD',
      success: false,
      tags: {},
      error: { type: 'refresh_token_external_error', description: 'The refresh token was revoked by the user' },
    });
    const before = await card('ads-main');
    for (const signature of [undefined, 'zz', nango.sign(event, 'another-key'), nango.sign(`${event} `)]) {
      const res = await webhook(event, signature);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    }
    expect(await card('ads-main')).toEqual(before);
    // The cross-site guard: a browser page elsewhere cannot post it.
    const foreign = await webhook(event, nango.sign(event), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await card('ads-main')).toEqual(before);

    const res = await webhook(event, nango.sign(event));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, updated: 1 });
    const after = await card('ads-main');
    const reason = 'Nango: the refresh failed: The refresh token was revoked by the user';
    expect(after).toMatchObject({ status: 'expired', last_error: reason, token: { last_error: reason } });

    const reauthorized = JSON.stringify({
      type: 'auth',
      operation: 'override',
      connectionId: 'ads-main',
      providerConfigKey: KEY,
      success: true,
    });
    expect((await webhook(reauthorized, nango.sign(reauthorized))).body).toEqual({ received: true, updated: 1 });
    expect(await card('ads-main')).toMatchObject({ status: 'active', last_error: null, token: { last_error: null } });
    const sync = JSON.stringify({ type: 'sync', connectionId: 'ads-main', providerConfigKey: KEY, success: true });
    expect((await webhook(sync, nango.sign(sync))).body).toEqual({ received: true, updated: 0 });
  });

  it('makes a Nango connect link for the connection', async () => {
    const res = await call('/api/credentials/connect-link', {
      method: 'POST',
      json: { project_id: P, connection_ref_id: 'ads-main' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      connect_link: 'https://connect.nango.dev?session_token=nango_connect_session_abc',
      token: 'nango_connect_session_abc',
      expires_at: '2026-05-18T09:30:00.000Z',
    });
    expect(nango.sessions.at(-1)).toEqual({
      allowed_integrations: [KEY],
      tags: { end_user_id: `${P}:ads-main`, organization_id: P },
    });
  });

  it('hostile input to the new routes gets a clear 4xx, changes nothing, and the service keeps serving', async () => {
    const before = await card('ads-main');
    const signed = (raw: string) => webhook(raw, nango.sign(raw));
    const cases: [string, Promise<{ status: number; headers: Headers; body: unknown }>][] = [
      ['null', signed('null')],
      ['array', signed('[1,2,3]')],
      ['number', signed('42')],
      ['wrong types', signed(JSON.stringify({ type: 'auth', connectionId: 7, providerConfigKey: [KEY] }))],
      ['deep', signed(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)],
      ['not JSON', signed('{"type": "auth",')],
      ['too large', signed(JSON.stringify({ type: 'auth', pad: 'x'.repeat(300_000) }))],
      ['NUL', signed(JSON.stringify({ type: 'auth', connectionId: 'ads\u0000main', providerConfigKey: KEY }))],
      ['text/plain', webhook('{}', nango.sign('{}'), { 'content-type': 'text/plain' })],
      ['form', webhook('a=b', nango.sign('a=b'), { 'content-type': 'application/x-www-form-urlencoded' })],
      [
        'connect-link garbage',
        call('/api/credentials/connect-link', {
          method: 'POST',
          json: { project_id: P, connection_ref_id: '../x', x: 1 },
        }),
      ],
      [
        'connect-link without Nango config',
        call('/api/credentials/connect-link', { method: 'POST', json: { project_id: P, connection_ref_id: 'nope' } }),
      ],
    ];
    for (const [name, pending] of cases) {
      const res = await pending;
      expect(res.status, name).toBeLessThan(500);
      if (res.status >= 400) expect(res.headers.get('content-type'), name).toMatch(/problem\+json/);
      expect(JSON.stringify(res.body), name).not.toMatch(/at .*\.js:\d+|SELECT|stack/);
    }
    expect(await card('ads-main')).toEqual(before);
    expect((await api(`${service.url}/healthz`)).status).toBe(200);
  });

  it('the secret key is in no answer and no log line', () => {
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.text()).not.toContain(nango.secretKey);
    expect(answers.join('\n')).not.toContain(nango.secretKey);
    expect(answers.join('\n')).not.toContain('nango-access-');
  });
});

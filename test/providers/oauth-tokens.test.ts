import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { StoredTokens } from '../../src/modules/credentials/index.js';
import { openDatabase } from '../../src/platform/db/open.js';
import { retryAfterMs, withRetries } from '../../src/platform/outbound/request-retry.js';
import { OutboundError } from '../../src/platform/outbound/outbound-http.js';
import type { OutboundStreamResponse } from '../../src/platform/outbound/outbound-request.js';
import { PassThrough } from 'node:stream';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { awaitRun, createProject } from '../support/flows.js';
import { type OAuthSource, type OAuthSourceOptions, startOAuthSource } from '../support/oauth-source.js';

const P = 'proj_tokens';

describe('retry bounds of one request', () => {
  const clock = new ManualClock('2026-12-02T06:00:00Z');
  const answer = (status: number, headers: Record<string, string> = {}): OutboundStreamResponse => {
    const body = new PassThrough();
    body.end();
    return { status, headers, url: 'https://x.example/', body };
  };

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('7', clock)).toBe(7000);
    expect(retryAfterMs('Wed, 02 Dec 2026 06:00:30 GMT', clock)).toBe(30_000);
    expect(retryAfterMs('Wed, 02 Dec 2026 05:00:00 GMT', clock)).toBe(0);
    expect(retryAfterMs('soon', clock)).toBeUndefined();
    expect(retryAfterMs(undefined, clock)).toBeUndefined();
  });

  it('waits what the source says, stops at the try bound and at the wait bound', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const settings = { maxTries: 5, maxWaitMs: 300_000, baseDelayMs: 1000, clock, sleep };
    let calls = 0;
    const limited = await withRetries(async () => {
      calls += 1;
      return calls < 3 ? answer(429, { 'retry-after': '2' }) : answer(200);
    }, settings);
    expect(limited).toMatchObject({ tries: 3, exhausted: false, res: { status: 200 } });
    expect(waits).toEqual([2000, 2000]);
    waits.length = 0;
    const always = await withRetries(async () => answer(503, { 'retry-after': '1' }), settings);
    expect(always).toMatchObject({ tries: 5, exhausted: true, res: { status: 503 } });
    expect(waits).toEqual([1000, 1000, 1000, 1000]);
    waits.length = 0;
    const tooLong = await withRetries(async () => answer(429, { 'retry-after': '600' }), settings);
    expect(tooLong).toMatchObject({ tries: 1, exhausted: true });
    expect(waits).toEqual([]);
    // Resets back off exponentially with jitter (here: the top of each range).
    let resets = 0;
    const reset = await withRetries(
      async () => {
        resets += 1;
        if (resets < 4) throw new OutboundError('network', 'connection reset by x.example', 0);
        return answer(200);
      },
      { ...settings, random: () => 1 },
    );
    expect(reset.tries).toBe(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    // A provider's own hint wins (a later source's retryDelay, usage headers).
    waits.length = 0;
    let hinted = 0;
    await withRetries(
      async () => {
        hinted += 1;
        return hinted === 1 ? answer(400, { 'x-retry-in': '9' }) : answer(200);
      },
      { ...settings, hint: (res) => (res.headers['x-retry-in'] ? { retry: true, waitMs: 9000 } : undefined) },
    );
    expect(waits).toEqual([9000]);
  });
});

describe.each(STORES)('OAuth tokens and per-request retries in runs [%s]', (store) => {
  let service: RunningService;
  const sources: OAuthSource[] = [];
  const clock = new ManualClock('2026-05-18T09:00:00Z');

  const source = async (options: OAuthSourceOptions) => {
    const s = await startOAuthSource(options);
    sources.push(s);
    return s;
  };
  const connect = async (ref: string, s: OAuthSource, extra: Record<string, unknown> = {}) => {
    const res = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'http_json',
        connection_ref_id: ref,
        config: {
          url: `${s.url}/v1/records`,
          token_url: `${s.url}/oauth/token`,
          grant_type: 'refresh_token',
          pagination: { type: 'page', page_param: 'page', first_page: 1 },
          mapping: { date: 'day', campaign_id: 'campaign', spend: 'spend' },
          defaults: { channel: 'search', currency: 'EUR' },
          ...extra,
        },
        secrets: { ...s.client, refresh_token: s.firstRefreshToken },
      },
    });
    expect(res.status).toBe(200);
  };
  const run = async (ref: string) => {
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name: `Tokens ${ref}`, connection_ref_id: ref, provider: 'http_json', cadence: 'manual' },
      },
    });
    const queued = await api(`${service.url}/api/flows/${ds.body.datastream.id}/run`, { method: 'POST' });
    return awaitRun(service, P, queued.body.id);
  };
  const storedCampaigns = async (prefix: string) =>
    (
      await service.app.db.query<{ n: number; d: number }>(
        `SELECT count(*) AS n, count(DISTINCT campaign_id) AS d FROM ad_performance_daily
         WHERE project_id = $1 AND datastream_id IN (SELECT id FROM datastreams WHERE connection_ref_id = $2)`,
        [P, prefix],
      )
    )[0]!;
  const connection = async (ref: string) =>
    (await api(`${service.url}/api/credentials/list?project_id=${P}&limit=200`)).body.connections.find(
      (c: { connection_ref_id: string }) => c.connection_ref_id === ref,
    );

  beforeAll(async () => {
    service = await startService(store, {
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_RETRY_BASE_MS: '5' },
    });
    await createProject(service, P, 'EUR');
  });
  afterAll(async () => {
    await service?.close();
    for (const s of sources) await s.close();
  });

  it('a token revoked after page 2: one refresh, page 3 asked again, every record once', async () => {
    const s = await source({ pages: 5, revokeAfterPage: 2 });
    await connect('revoked', s);
    const result = await run('revoked');
    expect(result).toMatchObject({ status: 'succeeded', rows_read: 15 });
    expect(s.tokenRequests.map((t) => t.outcome)).toEqual(['issued', 'issued']);
    expect(s.pageRequests).toEqual([
      { page: 1, status: 200 },
      { page: 2, status: 200 },
      { page: 3, status: 401 },
      { page: 3, status: 200 },
      { page: 4, status: 200 },
      { page: 5, status: 200 },
      { page: 6, status: 200 },
    ]);
    expect(await storedCampaigns('revoked')).toEqual({ n: 15, d: 15 });
    const card = await connection('revoked');
    expect(card.token).toMatchObject({
      source: 'token_endpoint',
      expires_at: '2026-05-18T10:00:00.000Z',
      last_refresh_at: '2026-05-18T09:00:00.000Z',
      last_error: null,
    });
    expect(JSON.stringify(card)).not.toContain('access-');
  });

  it('two runs against a rotating token endpoint both succeed; the rotated token is stored encrypted', async () => {
    const s = await source({ pages: 2, rotate: true, expiresIn: 600 });
    await connect('rotating', s);
    expect(await run('rotating')).toMatchObject({ status: 'succeeded', rows_read: 6 });
    // The cached token lasts: a second run soon after asks the endpoint nothing.
    expect(await run('rotating')).toMatchObject({ status: 'succeeded' });
    expect(s.tokenRequests).toHaveLength(1);
    clock.advance(20 * 60_000);
    expect(await run('rotating')).toMatchObject({ status: 'succeeded' });
    clock.advance(20 * 60_000);
    expect(await run('rotating')).toMatchObject({ status: 'succeeded' });
    expect(s.tokenRequests.map((t) => [t.refresh_token, t.outcome])).toEqual([
      ['refresh-0', 'issued'],
      ['refresh-1', 'issued'],
      ['refresh-2', 'issued'],
    ]);
    const [row] = await service.app.db.query<{ secrets_ciphertext: Uint8Array; access_token_ciphertext: Uint8Array }>(
      'SELECT secrets_ciphertext, access_token_ciphertext FROM connections WHERE connection_ref_id = $1',
      ['rotating'],
    );
    expect(Buffer.from(row!.secrets_ciphertext).toString('latin1')).not.toContain('refresh-3');
    expect(service.app.services.credentials.box.open(row!.secrets_ciphertext)).toMatchObject({
      refresh_token: s.currentRefreshToken(),
    });
    expect(Buffer.from(row!.access_token_ciphertext).toString('latin1')).not.toContain('access-');
  });

  it('renewals of one connection at once ask the endpoint once, and never spend a refresh token twice', async () => {
    const s = await source({ pages: 1, rotate: true });
    await connect('concurrent', s);
    const credentials = service.app.services.credentials;
    const row = (await credentials.find(P, 'concurrent'))!;
    const tokens = [1, 2, 3].map(() => credentials.contextFor(row, clock).context.tokens!);
    const first = await tokens[0]!.current();
    const renewed = await Promise.all(tokens.map((t) => t.renew(first)));
    expect(new Set(renewed).size).toBe(1);
    expect(s.tokenRequests.map((t) => t.outcome)).toEqual(['issued', 'issued']);
  });

  it.runIf(store === 'postgres')(
    'two replicas renewing one connection at once: the row lock lets one ask',
    async () => {
      const s = await source({ pages: 1, rotate: true });
      await connect('replicas', s);
      const credentials = service.app.services.credentials;
      // A second pool on the same database stands for another replica (its own process-local state).
      const other = await openDatabase({ databaseUrl: service.store.url, dataDir: service.app.config.dataDir });
      try {
        const settings = {
          token_url: `${s.url}/oauth/token`,
          grant_type: 'refresh_token' as const,
          token_auth: 'basic' as const,
          timeout_ms: 5000,
        };
        const key = { project_id: P, connection_ref_id: 'replicas' };
        const replica = (db: typeof other) =>
          new StoredTokens({ db, box: credentials.box, clock, outbound: credentials.outbound }, key, settings);
        const a = replica(service.app.db);
        const b = replica(other);
        const first = await a.current();
        const [x, y] = await Promise.all([a.renew(first), b.renew(first)]);
        expect(x).toBe(y);
        expect(s.tokenRequests.map((t) => t.outcome)).toEqual(['issued', 'issued']);
      } finally {
        await other.close();
      }
    },
  );

  it('a 429 on page 3 costs one retry of page 3 and nothing else', async () => {
    const s = await source({ pages: 4, rateLimit: { page: 3, times: 1, retryAfter: '0' } });
    await connect('limited', s);
    expect(await run('limited')).toMatchObject({ status: 'succeeded', rows_read: 12 });
    expect(s.pageRequests.map((p) => `${p.page}:${p.status}`)).toEqual([
      '1:200',
      '2:200',
      '3:429',
      '3:200',
      '4:200',
      '5:200',
    ]);
    expect(s.tokenRequests).toHaveLength(1);
    expect(await storedCampaigns('limited')).toEqual({ n: 12, d: 12 });
  });

  it('a connection reset on page 2 is retried after a backoff: the page once more, every record once', async () => {
    const s = await source({ pages: 3, reset: { page: 2, times: 2 } });
    await connect('reset', s);
    expect(await run('reset')).toMatchObject({ status: 'succeeded', rows_read: 9 });
    expect(s.pageRequests.map((p) => `${p.page}:${p.status}`)).toEqual([
      '1:200',
      '2:0',
      '2:0',
      '2:200',
      '3:200',
      '4:200',
    ]);
    expect(await storedCampaigns('reset')).toEqual({ n: 9, d: 9 });
  });

  it('a page that stays rate limited fails the run with the page and the reason; nothing is stored', async () => {
    const s = await source({
      pages: 4,
      rateLimit: { page: 3, times: 100, retryAfter: 'Mon, 18 May 2026 09:00:00 GMT' },
    });
    await connect('throttled', s);
    const failed = await run('throttled');
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'page 3 of 2026-05-12..2026-05-18: HTTP 429 from the API after 5 tries',
    });
    expect(s.pageRequests.filter((p) => p.page === 3)).toHaveLength(5);
    expect(await storedCampaigns('throttled')).toEqual({ n: 0, d: 0 });
    expect((await connection('throttled')).last_error).toBe(failed.error);
  });

  it('client credentials in the form body when the token endpoint wants them there', async () => {
    const s = await source({ pages: 1, tokenAuth: 'body' });
    await connect('basic-refused', s);
    expect(await run('basic-refused')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^401 from the token endpoint \(invalid_client\)/),
    });
    await connect('in-body', s, { token_auth: 'body' });
    expect(await run('in-body')).toMatchObject({ status: 'succeeded', rows_read: 3 });
    expect((await connection('basic-refused')).token.last_error).toMatch(/invalid_client/);
  });
});

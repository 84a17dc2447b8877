import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MoneyService, BUNDLED_SNAPSHOT } from '../../src/modules/money/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import {
  ecbDailyCsv,
  ecbHistCsv,
  ecbXml,
  hostileEcbXml,
  startFeedServer,
  zipOf,
  type FeedServer,
} from './ecb-fixtures.js';

/** Flips one byte inside the compressed data (after the 30-byte header and the name). */
function corrupt(zip: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(zip);
  copy[30 + 'eurofxref.csv'.length + 2]! ^= 0xff;
  return copy;
}

describe.each(STORES)('refreshing rates from FX_RATES_URL [%s]', (store) => {
  let service: RunningService;
  let feed: FeedServer;
  const clock = new ManualClock('2026-04-17T12:00:00Z');
  const refresh = () => api(`${service.url}/api/money/rates/refresh`, { method: 'POST' });
  const ratesOn = async (date: string) => (await api(`${service.url}/api/money/rates?date=${date}`)).body;
  /** Everything stored, as one comparable fingerprint. */
  const fingerprint = async () =>
    (
      await service.store.db.query<{ n: number; total: string; last: string }>(
        'SELECT count(*) AS n, sum(rate_per_eur)::text AS total, max(rate_date) AS last FROM fx_rates',
      )
    )[0]!;

  beforeAll(async () => {
    feed = await startFeedServer();
    service = await startService(store, { clock, env: { FX_RATES_URL: feed.url } });
  });
  afterAll(async () => {
    await service?.close();
    await feed?.close();
  });

  it('adds a new day from the ECB daily XML (POST with no body)', async () => {
    feed.serve(ecbXml([{ time: '2026-04-14', rates: { USD: '1.1702', GBP: '0.87110', JPY: '187.02' } }]));
    const res = await refresh();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      format: 'xml',
      days_in_feed: 1,
      first_date: '2026-04-14',
      last_date: '2026-04-14',
      rates_in_feed: 3,
      rates_added: 3,
      rates_already_stored: 0,
      latest_rate_date: '2026-04-14',
    });
    // The query string may carry a key: it never reaches an answer.
    expect(res.body.source).toMatch(/^ecb:http:\/\/127\.0\.0\.1:\d+\/feed$/);
    const day = await ratesOn('2026-04-14');
    expect(day).toMatchObject({ rate_date: '2026-04-14', rates: { USD: 1.1702, GBP: 0.8711, JPY: 187.02 } });
    expect(day.source).toBe(res.body.source);
    // The same feed again adds nothing; an empty JSON body works too.
    const again = await api(`${service.url}/api/money/rates/refresh`, { method: 'POST', json: {} });
    expect(again.body).toMatchObject({ rates_added: 0, rates_already_stored: 3, rates_differing_kept: 0 });
  });

  it('never rewrites a stored rate: a 90-day XML restating one keeps the stored value', async () => {
    feed.serve(
      ecbXml(
        [
          { time: '2026-04-15', rates: { USD: '1.1650', GBP: '0.86990' } },
          { time: '2026-04-13', rates: { USD: '1.2000', GBP: '0.87058' } },
        ],
        '"',
      ),
    );
    const res = await refresh();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      days_in_feed: 2,
      first_date: '2026-04-13',
      last_date: '2026-04-15',
      rates_added: 2,
      rates_already_stored: 2,
      rates_differing_kept: 1,
    });
    expect((await ratesOn('2026-04-13')).rates.USD).toBe(1.1684);
    expect((await ratesOn('2026-04-15')).rates).toEqual({ USD: 1.165, GBP: 0.8699 });
  });

  it('reads the daily CSV ("16 April 2026" dates) and the history CSV (ISO dates, N/A cells)', async () => {
    feed.serve(ecbDailyCsv('16 April 2026', { USD: '1.1666', JPY: '186.10' }), { type: 'text/csv' });
    const daily = await refresh();
    expect(daily.body).toMatchObject({ format: 'csv', first_date: '2026-04-16', rates_added: 2 });

    feed.serve(
      ecbHistCsv(
        ['USD', 'HRK', 'GBP'],
        [
          ['2026-04-17', '1.1690', 'N/A', '0.87200'],
          ['2026-04-16', '1.1666', 'N/A', '0.87150'],
        ],
      ),
      { type: 'text/csv' },
    );
    const hist = await refresh();
    expect(hist.status).toBe(200);
    expect(hist.body).toMatchObject({
      format: 'csv',
      days_in_feed: 2,
      rates_in_feed: 4,
      rates_added: 3,
      rates_already_stored: 1,
      latest_rate_date: '2026-04-17',
    });
    expect((await ratesOn('2026-04-17')).rates).toEqual({ USD: 1.169, GBP: 0.872 });
    expect((await ratesOn('2026-04-16')).rates).toEqual({ USD: 1.1666, JPY: 186.1, GBP: 0.8715 });
  });

  it('reads the ECB ZIP archive of a CSV (eurofxref.zip)', async () => {
    const csv = ecbHistCsv(
      ['USD', 'GBP'],
      [
        ['2026-04-17', '1.1690', '0.87200'],
        ['2026-04-13', '1.1684', '0.87058'],
      ],
    );
    feed.serve(zipOf('eurofxref-hist.csv', csv), { type: 'application/zip' });
    const before = await fingerprint();
    const res = await refresh();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      format: 'csv-zip',
      first_date: '2026-04-13',
      last_date: '2026-04-17',
      rates_in_feed: 4,
      rates_added: 0,
      rates_differing_kept: 0,
    });
    expect(await fingerprint()).toEqual(before);
  });

  it('reads a file: URL too (an operator-mirrored feed)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-file-'));
    try {
      const file = path.join(dir, 'eurofxref-daily.xml');
      fs.writeFileSync(file, ecbXml([{ time: '2026-04-13', rates: { USD: '1.1684' } }]));
      const money = new MoneyService(service.store.db, pathToFileURL(file).href);
      const result = await money.refreshRates(service.app.systemContext());
      expect(result).toMatchObject({
        format: 'xml',
        source: expect.stringMatching(/^ecb:file:\/\/.*eurofxref-daily\.xml$/),
        rates_added: 0,
        rates_already_stored: 1,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const malformed: [string, string | Uint8Array, RegExp][] = [
    [
      'a truncated XML download',
      ecbXml([{ time: '2026-04-17', rates: { USD: '1.1690' } }]).slice(0, -40),
      /ends inside|malformed tag/,
    ],
    [
      'an XML rate that is not a number',
      ecbXml([{ time: '2026-04-17', rates: { USD: '1.1690', GBP: 'n/a' } }]),
      /GBP rate on 2026-04-17/,
    ],
    ['an XML day that does not exist', ecbXml([{ time: '2026-02-30', rates: { USD: '1.1690' } }]), /time="2026-02-30"/],
    ['a day in the future', ecbXml([{ time: '2026-05-01', rates: { USD: '1.1690' } }]), /2026-05-01 is in the future/],
    [
      'an HTML error page served with 200',
      '<!DOCTYPE html><html><body>Service unavailable</body></html>',
      /malformed tag|root/,
    ],
    [
      'a CSV row short of a cell (after good rows)',
      ecbHistCsv(
        ['USD', 'GBP'],
        [
          ['2026-04-17', '1.1690', '0.87'],
          ['2026-04-10', '1.1711'],
        ],
      ),
      /line 3 has/,
    ],
    ['a CSV quoting EUR against itself', ecbDailyCsv('17 April 2026', { USD: '1.1690', EUR: '1' }), /EUR/],
    ['an empty body', '', /empty/],
    [
      'a truncated ZIP (the real ECB archive, cut short)',
      Uint8Array.from(fs.readFileSync(BUNDLED_SNAPSHOT).subarray(0, 300_000)),
      /ZIP archive is unreadable/,
    ],
    [
      'a ZIP whose data fails its checksum',
      corrupt(zipOf('eurofxref.csv', ecbDailyCsv('17 April 2026', { USD: '1.1690' }))),
      /ZIP archive is unreadable/,
    ],
    ['a ZIP without a CSV', zipOf('readme.txt', 'hello'), /no \.csv/],
    ['an XML "billion laughs"', hostileEcbXml('laughs'), /declares entities of its own/],
    ['an XML external entity', hostileEcbXml('external'), /declares entities of its own/],
    ['an XML entity never declared', hostileEcbXml('undeclared'), /not well formed: .*undefined entity/],
    ['XML nested 100,000 elements deep', hostileEcbXml('deep'), /nested deeper than 32 levels/],
  ];

  it.each(malformed)('refuses %s with 502, says why and changes nothing', async (_name, body, reason) => {
    const before = await fingerprint();
    feed.serve(body);
    const res = await refresh();
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.code).toBe('fx_feed_invalid');
    expect(res.body.detail).toMatch(reason);
    expect(res.body.detail).toContain('No rate was changed');
    expect(res.body.detail).not.toContain('secret-in-query');
    expect(await fingerprint()).toEqual(before);
  });

  it('answers 502 fx_feed_unreachable when the feed answers an HTTP error, and records every attempt', async () => {
    feed.serve('down for maintenance', { status: 503, type: 'text/plain' });
    const res = await refresh();
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('fx_feed_unreachable');
    expect(res.body.detail).toContain('HTTP 503');
    const status = await service.app.services.money.ratesStatus();
    expect(status).toMatchObject({
      first_date: '1999-01-04',
      last_date: '2026-04-17',
      last_refresh: { status: 'failed' },
    });
    const failed = await service.store.db.query<{ n: number }>(
      "SELECT count(*) AS n FROM fx_rate_loads WHERE kind = 'feed' AND status = 'failed'",
    );
    expect(Number(failed[0]!.n)).toBe(malformed.length + 1);
  });
});

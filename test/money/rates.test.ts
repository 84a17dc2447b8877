import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledRates } from '../../src/modules/money/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { ecbHistCsv, zipOf } from './ecb-fixtures.js';

// The bundled snapshot ends 2026-04-13 (a Monday): USD 1.1684, GBP 0.87058, JPY 186.75.
// The Friday before (2026-04-10): USD 1.1711.
describe.each(STORES)('currency rates from the bundled ECB history [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-04-14T09:00:00Z');
  const rates = (query: string) => api(`${service.url}/api/money/rates?${query}`);

  beforeAll(async () => {
    service = await startService(store, { clock });
  });
  afterAll(async () => service?.close());

  it('loaded the whole history once, and a second load is skipped', async () => {
    const [{ n }] = await service.store.db.query<{ n: number }>('SELECT count(*) AS n FROM fx_rates');
    expect(Number(n)).toBe(217_555);
    const again = await service.app.services.money.ensureSnapshot(clock.now());
    expect(again).toEqual({ loaded: false, rates_inserted: 0 });
    const loads = await service.store.db.query<{ n: number }>(
      "SELECT count(*) AS n FROM fx_rate_loads WHERE kind = 'snapshot' AND status = 'loaded'",
    );
    expect(Number(loads[0]!.n)).toBe(1);
  });

  it('loads a replaced snapshot file: new days are added, stored rates are kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-snap-'));
    try {
      const file = path.join(dir, 'eurofxref-hist.zip');
      fs.writeFileSync(
        file,
        zipOf(
          'eurofxref-hist.csv',
          ecbHistCsv(
            ['USD', 'GBP'],
            [
              ['2026-04-14', '1.1700', '0.87100'],
              ['2026-04-13', '9.9999', '0.87058'],
            ],
          ),
        ),
      );
      const result = await loadBundledRates(service.store.db, clock.now(), file);
      expect(result).toEqual({ loaded: true, rates_inserted: 2 });
      expect(await loadBundledRates(service.store.db, clock.now(), file)).toEqual({ loaded: false, rates_inserted: 0 });
      expect((await rates('date=2026-04-13&symbols=USD')).body.rates.USD).toBe(1.1684);
      expect((await rates('date=2026-04-14&symbols=USD,GBP')).body.rates).toEqual({ USD: 1.17, GBP: 0.871 });
    } finally {
      await service.store.db.query("DELETE FROM fx_rates WHERE rate_date = '2026-04-14'");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the published EUR rates exactly for a publication day', async () => {
    const res = await rates('date=2026-04-13');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      base: 'EUR',
      rate_date: '2026-04-13',
      requested_date: '2026-04-13',
      stale: false,
    });
    expect(res.body.source).toMatch(/^ecb/);
    expect(res.body.rates.USD).toBe(1.1684);
    expect(res.body.rates.GBP).toBe(0.87058);
    expect(res.body.rates.IDR).toBe(20082.05);
    expect(res.body.rates.EUR).toBeUndefined();
    // Discontinued currencies are not quoted that day, so they are not in the answer.
    expect(res.body.rates.HRK).toBeUndefined();
    expect(Object.keys(res.body.rates)).toHaveLength(29);
  });

  it('triangulates any base through EUR', async () => {
    const res = await rates('base=usd&date=2026-04-13');
    expect(res.status).toBe(200);
    expect(res.body.base).toBe('USD');
    expect(res.body.rates.USD).toBeUndefined();
    expect(res.body.rates.EUR).toBe(Number((1 / 1.1684).toPrecision(12)));
    expect(res.body.rates.GBP).toBe(Number((0.87058 / 1.1684).toPrecision(12)));
    expect(res.body.rates.JPY).toBe(Number((186.75 / 1.1684).toPrecision(12)));
    // GBP→JPY via EUR equals JPY/GBP of the published rates.
    const gbp = await rates('base=GBP&date=2026-04-13&symbols=JPY,USD,EUR');
    expect(Object.keys(gbp.body.rates).sort()).toEqual(['EUR', 'JPY', 'USD']);
    expect(gbp.body.rates.JPY).toBe(Number((186.75 / 0.87058).toPrecision(12)));
    expect(gbp.body.rates.EUR * 0.87058).toBeCloseTo(1, 11);
  });

  it('converts with each currency’s last rate on or before the day', async () => {
    const money = service.app.services.money;
    expect(await money.convert(100, 'EUR', 'USD', '2026-04-13')).toEqual({
      amount: 116.84,
      rate: 1.1684,
      rate_date: '2026-04-13',
      stale: false,
    });
    const back = await money.convert(116.84, 'USD', 'EUR', '2026-04-13');
    expect(back.amount).toBeCloseTo(100, 10);
    const weekend = await money.convert(50, 'USD', 'GBP', '2026-04-12');
    expect(weekend.rate_date).toBe('2026-04-10');
    expect(weekend.amount).toBeCloseTo((50 * 0.87105) / 1.1711, 10);
    expect((await money.convert(7, 'JPY', 'JPY', '2026-04-13')).amount).toBe(7);
    await expect(money.convert(1, 'XXX', 'USD', '2026-04-13')).rejects.toMatchObject({ code: 'unknown_currency' });
  });

  it('answers a weekend with the last publication and says which day', async () => {
    for (const day of ['2026-04-11', '2026-04-12']) {
      const res = await rates(`date=${day}&symbols=USD`);
      expect(res.body).toMatchObject({
        rate_date: '2026-04-10',
        requested_date: day,
        stale: false,
        rates: { USD: 1.1711 },
      });
    }
  });

  it('marks a rate more than 14 days old as stale, and defaults the day to today', async () => {
    clock.set('2026-11-22T06:00:00Z');
    try {
      expect((await rates('date=2026-04-27&symbols=USD')).body.stale).toBe(false);
      const late = await rates('date=2026-04-28&symbols=USD');
      expect(late.body).toMatchObject({ rate_date: '2026-04-13', stale: true, rates: { USD: 1.1684 } });
      const today = await rates('base=GBP');
      expect(today.status).toBe(200);
      expect(today.body).toMatchObject({ rate_date: '2026-04-13', requested_date: '2026-11-22', stale: true });
      expect((await service.app.services.money.convert(1, 'EUR', 'USD', '2026-11-22')).stale).toBe(true);
    } finally {
      clock.set('2026-04-14T09:00:00Z');
    }
  });

  it('refuses an unknown currency with 400 listing the supported codes, one entry per code', async () => {
    const res = await rates('base=XYZ&symbols=USD,ABC');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.code).toBe('unknown_currency');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['base', 'symbols.1']);
    expect(res.body.errors[0].message).toContain('USD');
    expect(res.body.supported_currencies).toEqual(expect.arrayContaining(['EUR', 'USD', 'GBP', 'JPY', 'HRK']));
    expect(res.body.detail).toContain('XYZ');
    const malformed = await rates('base=US');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].path).toBe('query.base');
  });

  it('refuses a day before the history, an impossible date and a currency not quoted that day', async () => {
    const before = await rates('date=1998-12-31');
    expect(before.status).toBe(400);
    expect(before.body.code).toBe('date_before_history');
    expect(before.body.detail).toContain('1999-01-04');
    const bad = await rates('date=2026-02-30');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: 'query.date', message: 'is not a real calendar date' }]);
    const future = await rates('date=2027-01-01');
    expect(future.status).toBe(400);
    expect(future.body.code).toBe('date_in_future');
    const hrk = await rates('base=HRK&date=2026-04-13');
    expect(hrk.status).toBe(400);
    expect(hrk.body.code).toBe('currency_not_quoted');
    const hrkThen = await rates('base=HRK&date=2020-01-02&symbols=EUR');
    expect(hrkThen.status).toBe(200);
    expect(hrkThen.body.rate_date).toBe('2020-01-02');
  });

  it('documents the rates and events routes in the OpenAPI document', async () => {
    const doc = await api(`${service.url}/api/openapi.json`);
    expect(doc.status).toBe(200);
    const paths = doc.body.paths as Record<string, Record<string, { 'x-permission': string }>>;
    expect(paths['/api/money/rates']!.get!['x-permission']).toBe('data.read');
    expect(paths['/api/money/rates/refresh']!.post!['x-permission']).toBe('admin');
    expect(Object.keys(paths['/api/context/events/{id}']!).sort()).toEqual(['delete', 'get', 'patch']);
    expect((await rates('date=2026-04-13&symbols=')).body.rates.USD).toBe(1.1684);
  });

  it('serves get_exchange_rates over MCP with the envelope, and errors with a code and a hint', async () => {
    const client = await connectModern(service.url);
    try {
      const result = await client.callTool({
        name: 'get_exchange_rates',
        arguments: { base: 'USD', date: '2026-04-12', symbols: ['GBP', 'EUR'] },
      });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as {
        meta: { tool: string; project_id: null; provenance: Record<string, unknown> };
        data: Record<string, unknown>;
      };
      expect(structured.meta.tool).toBe('get_exchange_rates');
      expect(structured.meta.provenance).toMatchObject({ rate_date: '2026-04-10', method: 'triangulated_via_eur' });
      expect(structured.data).toMatchObject({
        base: 'USD',
        rate_date: '2026-04-10',
        stale: false,
        rates: { GBP: Number((0.87105 / 1.1711).toPrecision(12)) },
      });
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toContain('2026-04-10');
      expect(text).toContain('- GBP');

      const wrong = await client.callTool({ name: 'get_exchange_rates', arguments: { base: 'QQQ' } });
      expect(wrong.isError).toBe(true);
      const message = (wrong.content as { text: string }[])[0]!.text;
      expect(message).toMatch(/^unknown_currency: /);
      expect(message).toContain('Next: Use one of the supported');
    } finally {
      await client.close();
    }
  });
});

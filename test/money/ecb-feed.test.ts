import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError, parseEcbFeed } from '../../src/modules/money/ecb-feed.js';
import { BUNDLED_SNAPSHOT } from '../../src/modules/money/money.snapshot.js';
import { PGLITE_TEMPLATE } from '../../src/platform/db/open.js';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { ecbDailyCsv, ecbXml, hostileEcbXml, zipOf } from './ecb-fixtures.js';

const opts = { latestDate: '2026-04-20' };
const bytes = (text: string) => new TextEncoder().encode(text);
const reason = (input: string | Uint8Array) => {
  try {
    parseEcbFeed(typeof input === 'string' ? bytes(input) : input, opts);
  } catch (error) {
    expect(error).toBeInstanceOf(FeedFormatError);
    return (error as Error).message;
  }
  throw new Error('the feed was accepted');
};

describe('ECB feed parser', () => {
  it('reads the bundled history archive: every day, oldest first, N/A cells skipped', () => {
    const feed = parseEcbFeed(fs.readFileSync(BUNDLED_SNAPSHOT), opts);
    expect(feed.format).toBe('csv-zip');
    expect(feed.days).toHaveLength(6983);
    expect(feed.days[0]!.date).toBe('1999-01-04');
    const last = feed.days[feed.days.length - 1]!;
    expect(last.date).toBe('2026-04-13');
    expect(last.rates.get('USD')).toBe('1.1684');
    expect(last.rates.has('HRK')).toBe(false);
    expect(feed.days.reduce((n, d) => n + d.rates.size, 0)).toBe(217_555);
  });

  it('reads the XML feeds with either quote style, a BOM and comments, keeping decimal text', () => {
    const xml =
      '\ufeff' +
      ecbXml(
        [
          { time: '2026-04-14', rates: { USD: '1.1702', IDR: '20082.05' } },
          { time: '2026-04-13', rates: { USD: '1.1684' } },
        ],
        '"',
      ).replace('<Cube>', '<!-- rates --><Cube>');
    const feed = parseEcbFeed(bytes(xml), opts);
    expect(feed.format).toBe('xml');
    expect(feed.days.map((d) => d.date)).toEqual(['2026-04-13', '2026-04-14']);
    expect(Object.fromEntries(feed.days[1]!.rates)).toEqual({ USD: '1.1702', IDR: '20082.05' });
  });

  it('reads the daily CSV and its ZIP', () => {
    const csv = ecbDailyCsv('14 April 2026', { USD: '1.1702', JPY: '187.02' });
    expect(parseEcbFeed(bytes(csv), opts).days[0]).toEqual({
      date: '2026-04-14',
      rates: new Map([
        ['USD', '1.1702'],
        ['JPY', '187.02'],
      ]),
    });
    expect(parseEcbFeed(zipOf('eurofxref.csv', csv), opts).format).toBe('csv-zip');
  });

  it('refuses what is not a well-formed ECB feed, naming the problem', () => {
    const day = (rates: Record<string, string>, time = '2026-04-14') => ecbXml([{ time, rates }]);
    expect(reason(day({ USD: '1.1702', usd: '1' }))).toMatch(/"usd" on 2026-04-14 is not a currency code/);
    expect(reason(day({ USD: '-1' }))).toMatch(/USD rate on 2026-04-14/);
    expect(reason(day({ USD: '0' }))).toMatch(/not a positive decimal/);
    expect(
      reason(
        ecbXml([
          { time: '2026-04-14', rates: { USD: '1' } },
          { time: '2026-04-14', rates: { GBP: '1' } },
        ]),
      ),
    ).toMatch(/appears twice/);
    expect(reason(day({ USD: '1' }, '1998-12-31'))).toMatch(/before the first ECB publication/);
    expect(reason(ecbXml([{ time: '2026-04-14', rates: {} }]))).toMatch(/has no rates/);
    expect(reason('<rss><channel/></rss>')).toMatch(/root is <rss>/);
    expect(reason(day({ USD: '1' }).replace("rate='1'/>", "rate='1'>junk</Cube>"))).toMatch(/unexpected text/);
    expect(reason('Date, USD, \n14 April 2026, 1.17, \n14 April 2026, 1.18, \n')).toMatch(/appears twice/);
    expect(reason('Date,USD,USD,\n2026-04-14,1,1,\n')).toMatch(/names USD twice/);
    expect(reason('Day,USD,\n2026-04-14,1,\n')).toMatch(/does not start with "Date"/);
    expect(reason('Date,USD,\n31 April 2026,1.1,\n')).toMatch(/not a date/);
    expect(reason(new Uint8Array([0xff, 0xfe, 0x00]))).toMatch(/not UTF-8/);
  });

  it('refuses hostile XML: entity expansion, external entities, deep nesting, and names where it stopped', () => {
    expect(reason(hostileEcbXml('laughs'))).toBe(
      'the document declares entities of its own (a DOCTYPE with declarations); refused',
    );
    expect(reason(hostileEcbXml('external'))).toBe(
      'the document declares entities of its own (a DOCTYPE with declarations); refused',
    );
    expect(reason(hostileEcbXml('undeclared'))).toBe('the XML is not well formed: 2:23: undefined entity.');
    expect(reason(hostileEcbXml('deep'))).toBe('elements are nested deeper than 32 levels; the ECB feed nests 4');
    const day = ecbXml([{ time: '2026-04-14', rates: { USD: '1.1702' } }]);
    expect(reason(day.replace('</gesmes:Sender>', '</gesmes:Sendr>'))).toBe(
      'the XML is not well formed: 6:16: unexpected close tag.',
    );
    expect(reason(`${day}<second/>`)).toMatch(
      /^the XML is not well formed: 12:\d+: documents may contain only one root/,
    );
    expect(reason(day.replace("rate='1.1702'/>", "rate='1.1702'><Cube/></Cube>"))).toBe(
      'Cube elements nested deeper than the ECB format allows',
    );
    // Character references are XML, not an attack: &#46; is a full stop.
    expect(parseEcbFeed(bytes(day.replace("rate='1.1702'", "rate='1&#46;1702'")), opts).days[0]!.rates.get('USD')).toBe(
      '1.1702',
    );
  });

  it('ships inside the embedded-store template, so a fresh store has the history before any start', async () => {
    const db = await PgliteDatabase.open({ templateTarball: PGLITE_TEMPLATE });
    try {
      const [row] = await db.query<{ n: number; last: string }>(
        'SELECT count(*) AS n, max(rate_date) AS last FROM fx_rates',
      );
      expect(row).toEqual({ n: 217_555, last: '2026-04-13' });
      const loads = await db.query<{ kind: string; status: string }>('SELECT kind, status FROM fx_rate_loads');
      expect(loads).toEqual([{ kind: 'snapshot', status: 'loaded' }]);
    } finally {
      await db.close();
    }
  });
});

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError, parseEcbFeed, BUNDLED_SNAPSHOT } from '../../src/modules/money/index.js';
import { PGLITE_TEMPLATE } from '../../src/platform/db/open.js';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { ecbDailyCsv, ecbXml, hostileEcbXml, zipOf } from './ecb-fixtures.js';

const opts = { latestDate: '2026-04-20' };
const bytes = (text: string) => new TextEncoder().encode(text);
const reason = async (input: string | Uint8Array) => {
  try {
    await parseEcbFeed(typeof input === 'string' ? bytes(input) : input, opts);
  } catch (error) {
    expect(error).toBeInstanceOf(FeedFormatError);
    return (error as Error).message;
  }
  throw new Error('the feed was accepted');
};

describe('ECB feed parser', () => {
  it('reads the bundled history archive: every day, oldest first, N/A cells skipped', async () => {
    const feed = await parseEcbFeed(fs.readFileSync(BUNDLED_SNAPSHOT), opts);
    expect(feed.format).toBe('csv-zip');
    expect(feed.days).toHaveLength(6983);
    expect(feed.days[0]!.date).toBe('1999-01-04');
    const last = feed.days[feed.days.length - 1]!;
    expect(last.date).toBe('2026-04-13');
    expect(last.rates.get('USD')).toBe('1.1684');
    expect(last.rates.has('HRK')).toBe(false);
    expect(feed.days.reduce((n, d) => n + d.rates.size, 0)).toBe(217_555);
  });

  it('reads the XML feeds with either quote style, a BOM and comments, keeping decimal text', async () => {
    const xml =
      '\ufeff' +
      ecbXml(
        [
          { time: '2026-04-14', rates: { USD: '1.1702', IDR: '20082.05' } },
          { time: '2026-04-13', rates: { USD: '1.1684' } },
        ],
        '"',
      ).replace('<Cube>', '<!-- rates --><Cube>');
    const feed = await parseEcbFeed(bytes(xml), opts);
    expect(feed.format).toBe('xml');
    expect(feed.days.map((d) => d.date)).toEqual(['2026-04-13', '2026-04-14']);
    expect(Object.fromEntries(feed.days[1]!.rates)).toEqual({ USD: '1.1702', IDR: '20082.05' });
  });

  it('reads the daily CSV and its ZIP', async () => {
    const csv = ecbDailyCsv('14 April 2026', { USD: '1.1702', JPY: '187.02' });
    expect((await parseEcbFeed(bytes(csv), opts)).days[0]).toEqual({
      date: '2026-04-14',
      rates: new Map([
        ['USD', '1.1702'],
        ['JPY', '187.02'],
      ]),
    });
    expect((await parseEcbFeed(zipOf('eurofxref.csv', csv), opts)).format).toBe('csv-zip');
  });

  it('refuses what is not a well-formed ECB feed, naming the problem', async () => {
    const day = (rates: Record<string, string>, time = '2026-04-14') => ecbXml([{ time, rates }]);
    expect(await reason(day({ USD: '1.1702', usd: '1' }))).toMatch(/"usd" on 2026-04-14 is not a currency code/);
    expect(await reason(day({ USD: '-1' }))).toMatch(/USD rate on 2026-04-14/);
    expect(await reason(day({ USD: '0' }))).toMatch(/not a positive decimal/);
    expect(
      await reason(
        ecbXml([
          { time: '2026-04-14', rates: { USD: '1' } },
          { time: '2026-04-14', rates: { GBP: '1' } },
        ]),
      ),
    ).toMatch(/appears twice/);
    expect(await reason(day({ USD: '1' }, '1998-12-31'))).toMatch(/before the first ECB publication/);
    expect(await reason(ecbXml([{ time: '2026-04-14', rates: {} }]))).toMatch(/has no rates/);
    expect(await reason('<rss><channel/></rss>')).toMatch(/root is <rss>/);
    expect(await reason(day({ USD: '1' }).replace("rate='1'/>", "rate='1'>junk</Cube>"))).toMatch(/unexpected text/);
    expect(await reason('Date, USD, \n14 April 2026, 1.17, \n14 April 2026, 1.18, \n')).toMatch(/appears twice/);
    expect(await reason('Date,USD,USD,\n2026-04-14,1,1,\n')).toMatch(/names USD twice/);
    expect(await reason('Day,USD,\n2026-04-14,1,\n')).toMatch(/does not start with "Date"/);
    expect(await reason('Date,USD,\n31 April 2026,1.1,\n')).toMatch(/not a date/);
    expect(await reason(new Uint8Array([0xff, 0xfe, 0x00]))).toMatch(/not UTF-8/);
  });

  it('refuses hostile XML: entity expansion, external entities, deep nesting, and names where it stopped', async () => {
    expect(await reason(hostileEcbXml('laughs'))).toBe(
      'the document declares entities of its own (a DOCTYPE with declarations); refused',
    );
    expect(await reason(hostileEcbXml('external'))).toBe(
      'the document declares entities of its own (a DOCTYPE with declarations); refused',
    );
    expect(await reason(hostileEcbXml('undeclared'))).toBe('the XML is not well formed: 2:23: undefined entity.');
    expect(await reason(hostileEcbXml('deep'))).toBe('elements are nested deeper than 32 levels; the ECB feed nests 4');
    const day = ecbXml([{ time: '2026-04-14', rates: { USD: '1.1702' } }]);
    expect(await reason(day.replace('</gesmes:Sender>', '</gesmes:Sendr>'))).toBe(
      'the XML is not well formed: 6:16: unexpected close tag.',
    );
    expect(await reason(`${day}<second/>`)).toMatch(
      /^the XML is not well formed: 12:\d+: documents may contain only one root/,
    );
    expect(await reason(day.replace("rate='1.1702'/>", "rate='1.1702'><Cube/></Cube>"))).toBe(
      'Cube elements nested deeper than the ECB format allows',
    );
    // Character references are XML, not an attack: &#46; is a full stop.
    expect(
      (await parseEcbFeed(bytes(day.replace("rate='1.1702'", "rate='1&#46;1702'")), opts)).days[0]!.rates.get('USD'),
    ).toBe('1.1702');
  });

  it('refuses hostile archives and CSV: damaged, bombed or ragged input changes nothing', async () => {
    const csv = ecbDailyCsv('14 April 2026', { USD: '1.1702' });
    const zip = Buffer.from(zipOf('eurofxref.csv', csv));
    expect(await reason(zip.subarray(0, zip.length - 30))).toMatch(/^the ZIP archive is unreadable: /);
    const flipped = Buffer.from(zip);
    const inData = 30 + 'eurofxref.csv'.length + 4; // past the local header and name
    flipped[inData] = flipped[inData]! ^ 0xff;
    expect(await reason(flipped)).toMatch(/^the ZIP archive is unreadable: entry eurofxref.csv /);
    // A deflate bomb: 80 MB of zeros declared honestly; refused from the central directory alone.
    const bomb = zipOf('eurofxref.csv', '0'.repeat(80 * 1024 * 1024));
    expect(await reason(bomb)).toMatch(/inflates to more than/);
    expect(await reason(zipOf('notes.txt', csv))).toBe('the ZIP archive holds no .csv file');
    expect(await reason('Date,USD,\n"2026-04-14,1.1,\n')).toMatch(/^the CSV is malformed: /);
    expect(await reason('Date,USD,\n2026-04-14,1.1\n')).toBe('CSV line 2 has 2 cells, the header 3');
    expect(await reason(`Date,USD,\n2026-04-14,${'9'.repeat(2 * 1024 * 1024)},\n`)).toMatch(/^the CSV is malformed: /);
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

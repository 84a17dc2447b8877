import { describe, expect, it } from 'vitest';
import { RawCsvEncoder } from '../../src/modules/ingestion/index.js';
import type { CanonicalRecord } from '../../src/modules/providers/index.js';

/** The plain-string CSV the encoder must reproduce byte for byte (what COPY was fed before it). */
const q = (text: string) => `"${text.replaceAll('"', '""')}"`;
const reference = (r: CanonicalRecord, suffix: string) =>
  `${q('run_1')},${q('ds_1')},${r.date},${q(r.campaign_id)},${q(r.campaign_name)},${q(r.channel)},${q(r.currency)},${r.spend},${r.impressions},${r.clicks},${r.conversions},${r.revenue}${suffix}`;

const base: CanonicalRecord = {
  date: '2026-05-18',
  campaign_id: 'c1',
  campaign_name: 'Spring',
  channel: 'search',
  currency: 'USD',
  spend: 12.5,
  impressions: 1000,
  clicks: 10,
  conversions: 1.25,
  revenue: 99.99,
};

describe('RawCsvEncoder', () => {
  it('writes exactly the CSV of String() numbers and quoted, quote-doubled texts', () => {
    const amounts = [
      0,
      -0,
      0.1,
      0.01,
      0.05,
      0.3,
      1.1,
      1.005,
      10,
      -1.5,
      -0.05,
      100.5,
      123.456,
      0.1 + 0.2,
      21474836.47,
      21474836.48,
      -21474836.47,
      1e9,
      1e21,
      5e-7,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 60),
      1 / 3,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      NaN,
      Infinity,
      -Infinity,
    ];
    // Random amounts of every shape: cents (the fast path), fractions, large values.
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 20_000; i += 1)
      amounts.push(
        Math.round((rand() - 0.5) * 2e9) / 100,
        rand() * 1000,
        Math.round(rand() * 1e6) / 10,
        (rand() - 0.5) * 1e14,
      );
    const texts = [
      '',
      'plain',
      'comma, inside',
      'quote " inside',
      '""',
      'new\nline',
      'tab\tand\rreturn',
      'Spring; sale "A"',
      'café',
      'Ωmega "quoted"',
      '日本語のキャンペーン',
      'emoji 🚀',
      'lone \ud800 surrogate',
    ];
    const records: CanonicalRecord[] = [];
    for (let i = 0; i < amounts.length; i += 1) {
      const text = texts[i % texts.length]!;
      records.push({
        ...base,
        campaign_id: `c${i}`,
        campaign_name: text,
        channel: texts[(i + 3) % texts.length]!,
        spend: amounts[i]!,
        conversions: amounts[(i + 1) % amounts.length]!,
        revenue: amounts[(i + 2) % amounts.length]!,
        impressions: Math.round(amounts[(i + 5) % amounts.length]! || 0),
        clicks: i,
      });
    }
    const encoder = new RawCsvEncoder(`${q('run_1')},${q('ds_1')},`);
    const parts: Buffer[] = [];
    let expected = '';
    records.forEach((r, i) => {
      // A new chunk (suffix) starts only when the encoder's buffer has been taken.
      if (i % 5000 === 0) {
        parts.push(encoder.take());
        encoder.endRowsWith(`,${i / 5000}\n`);
      }
      encoder.row(r);
      expected += reference(r, `,${Math.floor(i / 5000)}\n`);
      if (encoder.size > 100_000) parts.push(encoder.take());
    });
    parts.push(encoder.take());
    expect(Buffer.concat(parts).toString('utf8')).toBe(Buffer.from(expected).toString('utf8'));
    expect(Buffer.concat(parts).equals(Buffer.from(expected))).toBe(true);
  });

  it('grows for a row larger than its buffer', () => {
    const encoder = new RawCsvEncoder('"r","d",');
    const huge = { ...base, campaign_name: `x"${'é'.repeat(400_000)}` };
    encoder.row(huge);
    expect(encoder.take().equals(Buffer.from(reference(huge, '\n').replace('"run_1","ds_1",', '"r","d",')))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { applicable, runOnStore } from '../../bench/detection/harness.js';
import { scoreCorpus, scoreFile } from '../../bench/detection/nab-scorer.js';
import { DAYS, FIRST_DATE, holidayPeriods, syntheticSeries } from '../../bench/detection/synthetic.js';
import { addDays } from '../../src/platform/calendar.js';

describe('synthetic labelled series', () => {
  it('are the same on every run (seeded) and differ between seeds', () => {
    const a = syntheticSeries(2);
    const b = syntheticSeries(2);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a).toHaveLength(14);
    expect(a[0].rows).not.toEqual(a[7].rows);
  });

  it('label every injected anomaly with a window of days inside the series, in order, not overlapping', () => {
    for (const s of syntheticSeries(2)) {
      expect(s.rows).toHaveLength(DAYS);
      expect(s.rows[0].date).toBe(FIRST_DATE);
      expect(s.windows.length).toBe(s.anomalies.length);
      const dates = new Set(s.rows.map((r) => r.date));
      for (const [i, [from, to]] of s.windows.entries()) {
        expect(dates.has(from) && dates.has(to)).toBe(true);
        expect(from < to).toBe(true);
        if (i > 0) expect(s.windows[i - 1][1] < from).toBe(true);
      }
    }
  });

  it('put what the labels say into the data: a tracking outage is zero conversions, a spike is a spike', () => {
    const [spikes, , , outage] = syntheticSeries(1);
    const at = (rows: typeof spikes.rows, date: string) => rows.find((r) => r.date === date)!;
    const outageDay = outage.anomalies[0].slice(0, 10);
    expect(at(outage.rows, outageDay).conversions).toBe(0);
    expect(at(outage.rows, outageDay).revenue).toBe(0);
    expect(at(outage.rows, addDays(outageDay, -1)).conversions).toBeGreaterThan(20);
    const spikeDay = spikes.anomalies[0].slice(0, 10);
    const weekBefore = at(spikes.rows, addDays(spikeDay, -7)).spend;
    expect(at(spikes.rows, spikeDay).spend).toBeGreaterThan(1.6 * weekBefore);
  });
});

describe('the synthetic holiday calendar', () => {
  it('lists each holiday the series carry once, as the events a team would record', () => {
    const last = addDays(FIRST_DATE, DAYS - 1);
    expect(holidayPeriods(FIRST_DATE, last).map((h) => [h.title, h.from, h.to])).toEqual([
      ["New Year's Day 2024", '2024-01-01', '2024-01-01'],
      ['Black Friday 2024', '2024-11-29', '2024-11-29'],
      ['Cyber Monday 2024', '2024-12-02', '2024-12-02'],
      ['Christmas shopping weeks 2024', '2024-12-15', '2024-12-23'],
      ['Christmas Day 2024', '2024-12-25', '2024-12-25'],
      ["New Year's Day 2025", '2025-01-01', '2025-01-01'],
    ]);
  });
});

describe('detector settings', () => {
  it('drop only the keys this evaluator does not know, and say which', () => {
    const { applied, dropped } = applicable({
      threshold: 3,
      no_such_setting: true,
      metrics: { roas: { threshold: 4, no_such_override: 1 } },
    });
    expect(applied).toEqual({ threshold: 3, metrics: { roas: { threshold: 4 } } });
    expect(dropped.sort()).toEqual(['metrics.roas.no_such_override', 'no_such_setting']);
    expect(() => applicable({ threshold: -1 })).toThrow(/refused/);
  });
});

const stores = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
describe.each(stores)('a labelled series through the real ingestion and evaluator (%s)', (store) => {
  it('finds the labelled spike and nothing of a clean stretch, the same for detectors with the same settings', async () => {
    // 70 quiet days with a weekly shape, one spend spike on day 50, labelled [49, 52].
    const rows = Array.from({ length: 70 }, (_, i) => ({
      date: addDays('2025-01-01', i),
      spend: (i === 50 ? 400 : 100) + (i % 7) + ((i * 37) % 5),
      revenue: 300,
      conversions: 10,
      clicks: 100,
      impressions: 4000,
    }));
    const windows: [string, string][] = [[rows[49].date, rows[52].date]];
    // The same days in a project that recorded the spike's day as a holiday.
    const holiday = [{ event_type: 'holiday', title: 'Holiday', from: rows[50].date, to: rows[50].date }];
    const series = [
      { name: 'one', category: 'test', metric: 'spend', rows, windows },
      { name: 'holiday', category: 'test', metric: 'spend', rows, windows, events: holiday },
    ];
    const run = await runOnStore(
      store,
      series,
      [
        { name: 'a', settings: { threshold: 3 } },
        { name: 'b', settings: { threshold: 3, min_relative_change: 0.05 } },
        { name: 'never', settings: { threshold: 50, min_relative_change: 100 } },
        { name: 'events ignored', settings: { threshold: 3, expected_event_types: [] } },
      ],
      () => {},
    );
    const [a, b, never, ignored] = run.detectors;
    expect(a.detections.get('one')?.[0]).toBe(rows[50].date);
    expect(b.detections.get('one')).toEqual(a.detections.get('one'));
    expect(never.detections.get('one')).toEqual([]);
    // The event explains the spike for the detectors that read events, and only there.
    expect(a.detections.get('holiday')).not.toContain(rows[50].date);
    expect(ignored.detections.get('holiday')).toEqual(a.detections.get('one'));
    const scored = (d: typeof a) =>
      scoreCorpus([
        scoreFile(
          rows.map((r) => r.date),
          rows.map((r) => (d.detections.get('one') ?? []).includes(r.date)),
          windows,
        ),
      ]);
    expect(scored(a).detectedWindows).toBe(1);
    expect(scored(never).normalized).toBe(0);
  });
});

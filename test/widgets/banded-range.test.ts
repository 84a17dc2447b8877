import { describe, expect, it } from 'vitest';
import { bandedRange } from '../../web/shared/series.js';

describe('the value axis of a chart with a band (web/shared/series.ts)', () => {
  it('holds the values, the baseline and every band of the usual width', () => {
    // A quiet series whose band is wider than its values: all of the band shows.
    expect(bandedRange([100, 104, 98], [101, 101, 100], [88, 89, 87], [114, 113, 113])).toEqual([87, 114]);
    // Days without a baseline have no band and change nothing.
    expect(bandedRange([100, 104], [null, 101], [null, 95], [null, 107])).toEqual([95, 107]);
    expect(bandedRange([null], [null], [null], [null])).toBeNull();
  });

  it('leaves out a band far wider than the others: the spike widened it, the plot clips it', () => {
    // Five quiet days (band 87…113), a spike to 400, then two days whose trailing σ holds the spike.
    const values = [100, 96, 104, 101, 99, 400, 98, 102];
    const baseline = [100, 100, 100, 100, 100, 100, 110, 110];
    const lower = [87, 87, 87, 87, 87, 87, -117, -117];
    const upper = [113, 113, 113, 113, 113, 113, 337, 337];
    expect(bandedRange(values, baseline, lower, upper)).toEqual([87, 400]);
  });
});

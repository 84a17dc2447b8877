import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis, type KpiPoint } from '../support/kpis.js';

// The rule re-implemented from docs/api.md, independently of src/: median and 1.4826 × MAD.
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
/** The robust scale: the sample standard deviation after winsorizing at median ± 3 × 1.4826 × MAD. */
const madScale = (xs: number[]) => {
  const m = median(xs);
  const s = 1.4826 * median(xs.map((x) => Math.abs(x - m)));
  const w = xs.map((x) => Math.min(m + 3 * s, Math.max(m - 3 * s, x)));
  const mean = w.reduce((a, b) => a + b, 0) / w.length;
  return Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / (w.length - 1));
};

const P = 'proj_anom';
const W = 'proj_weekly';
const DATES = days('2026-03-01', 60);
const noise = (i: number) => ((i * 7) % 11) - 5;
const searchSpend = (i: number) => (i === 50 ? 200 : i === 5 ? 300 : 100 + noise(i));

describe.each(STORES)('anomaly surveillance [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-01T12:00:00Z');

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P);
    await createProject(service, W);
    const points: KpiPoint[] = DATES.flatMap((date, i) => [
      { date, channel: 'search', spend: searchSpend(i) },
      { date, channel: 'flat', spend: i === 55 ? 60 : 50 },
      { date, channel: 'tiny', spend: i === 55 ? 51 : 50 },
    ]);
    await writeKpis(service, P, points);
    // Weekdays around 100, weekends around 40: a weekly pattern, not an anomaly.
    await writeKpis(
      service,
      W,
      DATES.map((date, i) => {
        const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
        return { date, channel: 'search', spend: (dow === 0 || dow === 6 ? 40 : 100) + noise(i) / 5 };
      }),
    );
    const ev = await api(`${service.url}/api/context/events`, {
      method: 'POST',
      json: {
        project_id: P,
        event_type: 'promotion',
        title: 'Spring sale',
        event_date: DATES[50],
        impact_window_days: 0,
      },
    });
    expect(ev.status).toBe(201);
  });
  afterAll(async () => service?.close());

  it('rejects bad settings with one errors[] entry per violation and stores nothing', async () => {
    const res = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: {
        window_days: 3,
        threshold: -1,
        direction: 'sideways',
        precedent_margin: -0.1,
        metrics: { spend: { threshold: 0 }, bogus: {} },
      },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const paths = (res.body.errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual([
      'body.direction',
      'body.metrics',
      'body.metrics.spend.threshold',
      'body.precedent_margin',
      'body.threshold',
      'body.window_days',
    ]);
    const cross = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: {
        seasonality: 'day_of_week',
        seasonal_weeks: 4,
        min_training_days: 10,
        metrics: { cpa: { min_training_days: 9 } },
      },
    });
    expect(cross.status).toBe(400);
    expect(cross.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.metrics.cpa.min_training_days',
      'body.min_training_days',
    ]);
    const get = await api(`${service.url}/api/anomalies/settings?project_id=${P}`);
    expect(get.status).toBe(200);
    expect(get.body.updated_at).toBeNull();
    expect(get.body.effective).toMatchObject({
      window_days: 56,
      threshold: 3.5,
      min_training_days: 14,
      min_relative_change: 0.05,
      direction: 'both',
      seasonality: 'auto',
      baseline: 'robust',
      exclude_anomalies: true,
      level_shifts: true,
      level_shift_days: 5,
      precedent_days: 1460,
      precedent_margin: 0.08,
      precedent_margin_drop: 0.04,
      sustained_days: 2,
    });
    expect(get.body.effective.metrics.find((m: any) => m.metric === 'cvr')).toMatchObject({
      min_volume: 100,
      volume_metric: 'clicks',
    });
    expect(get.body.effective.metrics.find((m: any) => m.metric === 'spend')).toMatchObject({
      min_volume: null,
      volume_metric: null,
    });
    const volume = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { metrics: { spend: { min_volume: 5 } } },
    });
    expect(volume.status).toBe(400);
    expect(volume.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.metrics.spend.min_volume']);
  });

  it('evaluates every series: robust z against the trailing 28 days, training minimum, flat baselines', async () => {
    // The defaults at |z| 3 over 28 days (docs/api.md). The day-5 jump was judged on too few days
    // to be a precedent: the day-50 spike beats every trained deviation.
    const robust = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { window_days: 28, threshold: 3 },
    });
    expect(robust.status).toBe(200);
    const res = await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: DATES[0], to: DATES[59] });
    const list = await api(`${service.url}/api/anomalies?project_id=${P}&since=${DATES[0]}&metric=spend`);
    expect(list.status).toBe(200);
    const fired = list.body.anomalies as any[];
    const key = (a: any) => `${a.date}/${a.channel}`;
    // The day-5 jump of 300 has 5 days of history: below the training minimum, nothing fires.
    expect(fired.map(key)).not.toContain(`${DATES[5]}/search`);
    const spike = fired.find((a) => key(a) === `${DATES[50]}/search`);
    expect(spike).toBeDefined();
    const baseline = Array.from({ length: 28 }, (_, k) => searchSpend(22 + k));
    const mean = median(baseline);
    const sd = madScale(baseline);
    expect(spike.baseline_mean).toBeCloseTo(mean, 6);
    expect(spike.baseline_stddev).toBeCloseTo(sd, 6);
    expect(spike.z).toBeCloseTo((200 - mean) / sd, 6);
    expect(spike.score).toBeCloseTo(Math.abs(spike.z) / (Math.abs(spike.z) + 3), 9);
    expect(spike).toMatchObject({
      id: expect.stringMatching(/^anom_[0-9a-f]{24}$/),
      kind: 'spike',
      first_date: DATES[50],
      last_date: DATES[50],
      peak_date: DATES[50],
      fired_days: 1,
      severity: 'critical',
      value: 200,
      training_size: 28,
      window: { from: DATES[22], to: DATES[49], seasonality: 'auto', model: 'robust' },
      threshold: 3,
      direction: 'spike',
      watch: 'both',
      fired: true,
    });
    expect(spike.context_events.map((e: any) => e.title)).toEqual(['Spring sale']);
    // The project total spikes too, which the search channel explains: one anomaly, not two.
    expect(fired.map(key)).not.toContain(`${DATES[50]}/_total`);
    const [total] = await service.app.db.query<any>(
      `SELECT * FROM anomalies_daily WHERE project_id = $1 AND date = $2 AND metric = 'spend' AND channel = '_total'`,
      [P, DATES[50]],
    );
    expect(total).toMatchObject({ status: 'explained', explained_by_channel: 'search', explained_by_metric: 'spend' });
    expect(total.z).toBeGreaterThanOrEqual(3);
    // Flat baseline (scale 0): no z, the 20% change fires (score 1); the 2% change does not.
    const flat = fired.find((a) => key(a) === `${DATES[55]}/flat`);
    expect(flat).toMatchObject({
      z: null,
      baseline_stddev: 0,
      value: 60,
      baseline_mean: 50,
      relative_change: 0.2,
      direction: 'spike',
      score: 1,
    });
    expect(fired.map(key)).not.toContain(`${DATES[55]}/tiny`);
    // Nothing else fired on the search channel (the noise stays within 3 sigma).
    expect(fired.filter((a) => a.channel === 'search').map((a) => a.date)).toEqual([DATES[50]]);
    const drops = await api(
      `${service.url}/api/anomalies?project_id=${P}&since=${DATES[0]}&direction=drop&channel=search`,
    );
    expect(drops.body.anomalies).toEqual([]);
  });

  it('recomputes only the dates asked for, with the same result as a full pass', async () => {
    const before = await service.app.db.query(
      `SELECT * FROM anomalies_daily WHERE project_id = $1 ORDER BY date, metric, channel`,
      [P],
    );
    const one = await api(`${service.url}/api/anomalies/evaluate?project_id=${P}&from=${DATES[50]}&to=${DATES[50]}`, {
      method: 'POST',
    });
    expect(one.body.rows).toBe(before.filter((r: any) => r.date === DATES[50]).length);
    // The search spike (the total's move is explained by it, not fired).
    expect(one.body.fired).toBeGreaterThanOrEqual(1);
    const after = await service.app.db.query<any>(
      `SELECT * FROM anomalies_daily WHERE project_id = $1 ORDER BY date, metric, channel`,
      [P],
    );
    // The few-dates path aggregates each day's frame instead of a window pass: the same rows,
    // floats equal up to summation order.
    expect(after.length).toBe(before.length);
    const floats = ['baseline_mean', 'baseline_stddev', 'z', 'relative_change'];
    after.forEach((row: any, i: number) => {
      const was = before[i] as any;
      for (const [k, v] of Object.entries(row)) {
        if (floats.includes(k) && typeof v === 'number') expect(v).toBeCloseTo(was[k], 9);
        else expect(v).toEqual(was[k]);
      }
    });
  });

  it('direction and per-metric overrides: watching drops only silences the spike', async () => {
    const put = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { metrics: { spend: { direction: 'drop' } } },
    });
    expect(put.status).toBe(200);
    expect(put.body.effective.metrics.find((m: any) => m.metric === 'spend')).toMatchObject({
      direction: 'drop',
      threshold: 3.5,
    });
    await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    const list = await api(`${service.url}/api/anomalies?project_id=${P}&since=${DATES[0]}&metric=spend`);
    expect(list.body.anomalies).toEqual([]);
    await api(`${service.url}/api/anomalies/settings?project_id=${P}`, { method: 'PUT', json: {} });
  });

  it('day-of-week seasonality: a weekly pattern fires without it and not with it', async () => {
    await api(`${service.url}/api/anomalies/settings?project_id=${W}`, {
      method: 'PUT',
      // Precedents off: every weekend's drop is like the last, so they would hold the later ones.
      json: { seasonality: 'none', precedent_days: 0, metrics: { spend: { threshold: 1.2 } } },
    });
    await api(`${service.url}/api/anomalies/evaluate?project_id=${W}`, { method: 'POST' });
    const plain = await api(
      `${service.url}/api/anomalies?project_id=${W}&since=${DATES[0]}&metric=spend&channel=search`,
    );
    const weekendDrops = (plain.body.anomalies as any[]).filter((a) => a.direction === 'drop');
    expect(weekendDrops.length).toBeGreaterThan(5);
    for (const a of weekendDrops) expect([0, 6]).toContain(new Date(`${a.date}T00:00:00Z`).getUTCDay());
    const put = await api(`${service.url}/api/anomalies/settings?project_id=${W}`, {
      method: 'PUT',
      json: {
        seasonality: 'day_of_week',
        seasonal_weeks: 6,
        min_training_days: 4,
        threshold: 4,
        metrics: { spend: { threshold: 4 } },
      },
    });
    expect(put.status).toBe(200);
    await api(`${service.url}/api/anomalies/evaluate?project_id=${W}`, { method: 'POST' });
    const seasonal = await api(
      `${service.url}/api/anomalies?project_id=${W}&since=${DATES[0]}&metric=spend&channel=search`,
    );
    expect(seasonal.body.anomalies).toEqual([]);
    const [row] = await service.app.db.query<any>(
      `SELECT * FROM anomalies_daily WHERE project_id = $1 AND date = $2 AND metric = 'spend' AND channel = 'search'`,
      [W, DATES[59]],
    );
    expect(row).toMatchObject({
      seasonality: 'day_of_week',
      training_size: 6,
      window_from: DATES[59 - 42],
      window_to: DATES[52],
    });
    // The incremental (aggregate) path reads the same same-weekday frame.
    await api(`${service.url}/api/anomalies/evaluate?project_id=${W}&from=${DATES[59]}&to=${DATES[59]}`, {
      method: 'POST',
    });
    const [again] = await service.app.db.query<any>(
      `SELECT * FROM anomalies_daily WHERE project_id = $1 AND date = $2 AND metric = 'spend' AND channel = 'search'`,
      [W, DATES[59]],
    );
    expect(again).toMatchObject({ training_size: 6, window_from: row.window_from, value: row.value, fired: row.fired });
    expect(again.baseline_mean).toBeCloseTo(row.baseline_mean, 9);
    expect(again.baseline_stddev).toBeCloseTo(row.baseline_stddev, 9);
  });

  it('answers project_forbidden-style errors as problem+json and validates the query', async () => {
    const bad = await api(`${service.url}/api/anomalies?project_id=nope&metric=height`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['query.metric', 'query.project_id']);
  });
});

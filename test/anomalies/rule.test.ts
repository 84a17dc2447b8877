import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis, type KpiPoint } from '../support/kpis.js';

// Each part of the detection rule, on a series built to show it. Every channel
// of the project is one such series; the settings are ROBUST (the robust rule with exclusion at |z| 3
// over 28 days, precedents and sustained moves off: what each part is shown on) plus what a test
// says. The precedent check, sustained moves and the explained pass have tests of their own at the
// end, with the defaults.

const P = 'proj_rule';
const DATES = days('2026-03-02', 60); // a Monday
/** Deterministic noise in [-1, 1) (not periodic, unlike a modulo pattern). */
const noise = (i: number, salt = 0) => {
  const x = Math.sin((i + 1) * 12.9898 + salt * 78.233) * 43758.5453;
  return 2 * (x - Math.floor(x)) - 1;
};
const weekend = (i: number) => [5, 6].includes(i % 7);

const SERIES: Record<string, (i: number) => number> = {
  // One huge spike, then a moderate one: the mean's baseline is inflated by the first for 28 days.
  spiky: (i) => (i === 30 ? 1000 : i === 40 ? 125 : 100 + 4 * noise(i, 1)),
  // Weekdays about 100, weekends about 40, and one real weekday drop.
  weekly: (i) => (i === 45 ? 60 : weekend(i) ? 40 + noise(i, 2) : 100 + 2 * noise(i, 3)),
  // A level shift from 100 to 150 on day 35.
  shift: (i) => (i >= 35 ? 150 : 100) + 3 * noise(i, 4),
  // Three consecutive days far above: one anomaly.
  run: (i) => (i === 44 ? 170 : i === 45 ? 175 : i === 46 ? 160 : 100 + 3 * noise(i, 5)),
};

type Row = Record<string, any>;

const ROBUST = {
  baseline: 'robust',
  exclude_anomalies: true,
  threshold: 3,
  window_days: 28,
  precedent_days: 0,
  sustained_days: 1,
};

describe.each(STORES)('the detection rule, part by part [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-10T12:00:00Z');
  const put = async (settings: object) => {
    const res = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { ...ROBUST, ...settings },
    });
    expect(res.status).toBe(200);
    const ev = await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    expect(ev.status).toBe(200);
  };
  const listOf = async (channel: string, metric = 'spend') =>
    (await api(`${service.url}/api/anomalies?project_id=${P}&since=${DATES[0]}&metric=${metric}&channel=${channel}`))
      .body.anomalies as Row[];
  const firedDays = async (channel: string, metric = 'spend') =>
    (
      await service.app.db.query<{ date: string }>(
        'SELECT date FROM anomalies_daily WHERE project_id = $1 AND channel = $2 AND metric = $3 AND fired ORDER BY date',
        [P, channel, metric],
      )
    ).map((r) => r.date);
  const rowOn = async (channel: string, date: string, metric = 'spend') =>
    (
      await service.app.db.query<Row>(
        'SELECT * FROM anomalies_daily WHERE project_id = $1 AND channel = $2 AND metric = $3 AND date = $4',
        [P, channel, metric, date],
      )
    )[0]!;

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P);
    const points: KpiPoint[] = DATES.flatMap((date, i) => [
      ...Object.entries(SERIES).map(([channel, f]) => ({ date, channel, spend: Math.round(f(i) * 100) / 100 })),
      // A ratio on low volume: 50 clicks a day, about 5 conversions; 15 on day 50.
      {
        date,
        channel: 'lowvol',
        spend: 100,
        clicks: 50,
        conversions: i === 50 ? 15 : 5 + Math.round(noise(i, 6)),
      },
    ]);
    await writeKpis(service, P, points);
    await put({});
  });
  afterAll(async () => service?.close());

  it('robust baseline: one earlier spike does not hide a later one (the mean baseline misses it)', async () => {
    expect(await firedDays('spiky')).toEqual([DATES[30], DATES[40]]);
    const row = await rowOn('spiky', DATES[40]!);
    expect(row.model).toBe('robust');
    // The median ignores the 1000 (and it was excluded anyway); the mean without exclusion does not.
    expect(row.baseline_mean).toBeGreaterThan(95);
    expect(row.baseline_mean).toBeLessThan(105);
    await put({ baseline: 'mean', exclude_anomalies: false, level_shifts: false, seasonality: 'none' });
    expect(await firedDays('spiky')).toEqual([DATES[30]]);
    const mean = await rowOn('spiky', DATES[40]!);
    expect(mean.baseline_mean).toBeGreaterThan(125);
    expect(mean.baseline_stddev).toBeGreaterThan(100);
  });

  it('exclusion: a fired day stays out of later baselines (here with the mean baseline)', async () => {
    await put({ baseline: 'mean', exclude_anomalies: true, level_shifts: false, seasonality: 'none' });
    expect(await firedDays('spiky')).toEqual([DATES[30], DATES[40]]);
    const day30 = await rowOn('spiky', DATES[30]!);
    expect(day30).toMatchObject({ fired: true, excluded: true });
    const day40 = await rowOn('spiky', DATES[40]!);
    expect(day40.baseline_mean).toBeLessThan(105);
    // 28 days of window minus the excluded day 30.
    expect(day40.training_size).toBe(27);
    await put({});
  });

  it('auto seasonality: a weekly profile where the weekdays differ, none where they do not', async () => {
    // Defaults (auto): once four weeks show the pattern, the weekends are expected and the weekday
    // drop fires; before, the first weekends with enough training (days 19-20, 26-27) fire.
    const fired = await firedDays('weekly');
    expect(fired.filter((d) => d >= DATES[28]!)).toEqual([DATES[45]]);
    expect(fired.filter((d) => d < DATES[28]!).length).toBeLessThanOrEqual(4);
    expect((await rowOn('weekly', DATES[50]!)).model).toBe('robust+weekly');
    expect((await rowOn('run', DATES[50]!)).model).toBe('robust');
    // Without seasonality the weekends fire as drops.
    await put({ seasonality: 'none' });
    const plain = await firedDays('weekly');
    expect(plain.length).toBeGreaterThan(5);
    await put({});
  });

  it('level shift: fires once as level_shift, then the baseline re-anchors on the new level', async () => {
    const list = await listOf('shift');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      kind: 'level_shift',
      direction: 'spike',
      first_date: DATES[35],
      last_date: DATES[39],
      fired_days: 5,
    });
    expect(await firedDays('shift')).toEqual(DATES.slice(35, 40));
    const after = await rowOn('shift', DATES[55]!);
    expect(after).toMatchObject({ fired: false, anchor_date: DATES[35] });
    expect(after.baseline_mean).toBeGreaterThan(145);
    // The shift's own days are back in the baseline (the new level), not excluded.
    expect((await rowOn('shift', DATES[36]!)).excluded).toBe(false);
    // Without level shifts, exclusion keeps the old level: every day fires (one long anomaly) until
    // the 28-day frame holds fewer than 14 days that did not fire; then it starves and absorbs it.
    await put({ level_shifts: false });
    const flooded = await firedDays('shift');
    expect(flooded[0]).toBe(DATES[35]);
    expect(flooded.length).toBeGreaterThanOrEqual(10);
    expect(flooded.every((d) => d <= DATES[51]!)).toBe(true);
    expect((await rowOn('shift', DATES[55]!)).status).toBe('insufficient_training');
    const flood = await listOf('shift');
    expect(flood.length).toBeLessThanOrEqual(2);
    expect(flood.every((a) => a.kind === 'spike')).toBe(true);
    await put({});
  });

  it('episodes: consecutive fired days are one anomaly with a stable id and its days', async () => {
    const [a, ...rest] = await listOf('run');
    expect(rest).toEqual([]);
    expect(a).toMatchObject({
      kind: 'spike',
      first_date: DATES[44],
      last_date: DATES[46],
      // The peak is the highest score: day 45's scale counts day 44 (excluded from the level only).
      peak_date: DATES[44],
      date: DATES[44],
      value: 170,
      fired_days: 3,
    });
    const one = await api(`${service.url}/api/anomalies/${a!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: a!.id, project_id: P, first_date: DATES[44], last_date: DATES[46] });
    expect(one.body.days.map((d: Row) => [d.date, d.fired, d.status])).toEqual([
      [DATES[44], true, 'fired'],
      [DATES[45], true, 'fired'],
      [DATES[46], true, 'fired'],
    ]);
    // Re-evaluating the same window gives the same id.
    await api(`${service.url}/api/anomalies/evaluate?project_id=${P}&from=${DATES[40]}&to=${DATES[59]}`, {
      method: 'POST',
    });
    expect((await listOf('run'))[0]!.id).toBe(a!.id);
    const missing = await api(`${service.url}/api/anomalies/anom_${'0'.repeat(24)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('anomaly_not_found');
    expect((await api(`${service.url}/api/anomalies/not-an-id`)).status).toBe(400);
  });

  it('volume guard: a ratio on too few clicks says insufficient_volume and does not fire', async () => {
    const guarded = await rowOn('lowvol', DATES[50]!, 'cvr');
    expect(guarded).toMatchObject({ status: 'insufficient_volume', fired: false });
    expect(await firedDays('lowvol', 'cvr')).toEqual([]);
    // The conversions themselves are a count: no guard, the jump fires.
    expect(await firedDays('lowvol', 'conversions')).toContain(DATES[50]);
    // Without the guard (or below the clicks of the day) the ratio passes the threshold, and the
    // project pass says the conversions that fired explain it: one anomaly, not two.
    for (const min_volume of [0, 40]) {
      await put({ metrics: { cvr: { min_volume } } });
      expect(await rowOn('lowvol', DATES[50]!, 'cvr')).toMatchObject({
        status: 'explained',
        fired: false,
        explained_by_channel: 'lowvol',
        explained_by_metric: 'conversions',
      });
    }
    await put({});
  });

  it('score: |z| / (|z| + 3) on every row, monotone in |z|, severity from the score', async () => {
    const rows = await service.app.db.query<Row>(
      'SELECT z, score, severity, fired FROM anomalies_daily WHERE project_id = $1 AND z IS NOT NULL ORDER BY abs(z)',
      [P],
    );
    expect(rows.length).toBeGreaterThan(300);
    let last = -1;
    for (const r of rows) {
      expect(r.score).toBeCloseTo(Math.abs(r.z) / (Math.abs(r.z) + 3), 12);
      expect(r.score).toBeGreaterThanOrEqual(last);
      expect(r.score).toBeLessThan(1);
      last = r.score;
      const band = r.score >= 0.8 ? 'critical' : r.score >= 0.7 ? 'high' : r.score >= 0.6 ? 'medium' : 'low';
      expect(r.severity).toBe(r.fired ? band : null);
    }
  });

  it('precedent: a new anomaly must beat the swings of the last year on its side; a confirmed one is none', async () => {
    await put({ precedent_days: 365 });
    // spiky: day 30 (1000) beats every earlier spike and fires; day 40 (125) passes |z| ≥ 3 but the
    // series went 900 above its baseline 10 days before: precedented, with what it was held against.
    expect(await firedDays('spiky')).toEqual([DATES[30]]);
    const day30 = await rowOn('spiky', DATES[30]!);
    const day40 = await rowOn('spiky', DATES[40]!);
    expect(day40).toMatchObject({ status: 'precedented', fired: false });
    expect(Math.abs(day40.z)).toBeGreaterThanOrEqual(3);
    expect(day40.precedent).toBeCloseTo(1000 - day30.baseline_mean, 6);
    const points = await api(
      `${service.url}/api/anomalies/series?project_id=${P}&metric=spend&channel=spiky&from=${DATES[35]}&to=${DATES[45]}`,
    );
    expect(points.body.points.find((p: Row) => p.date === DATES[40])).toMatchObject({
      status: 'precedented',
      fired: false,
      precedent: expect.closeTo(day40.precedent, 6),
    });
    // A move that continues yesterday's anomaly is not held against the precedent: the level shift
    // still fires its five days and re-anchors.
    expect(await listOf('shift')).toMatchObject([{ kind: 'level_shift', first_date: DATES[35], fired_days: 5 }]);
    // People confirm day 30 as an incident: it no longer stands for what the series does.
    const [spike] = await listOf('spiky');
    const triaged = await api(`${service.url}/api/anomalies/${spike!.id}`, {
      method: 'PATCH',
      json: { status: 'resolved' },
    });
    expect(triaged.status).toBe(200);
    expect((await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' })).status).toBe(200);
    expect(await firedDays('spiky')).toEqual([DATES[30], DATES[40]]);
    expect((await rowOn('spiky', DATES[40]!)).precedent).toBeLessThan(50);
  });

  it('precedent margin: a recurring spike a hair above the last one is precedented; one well above fires', async () => {
    // Its own project, so the other series and the total stay as the other tests built them:
    // spend about 100, a spike to 200 on day 30, to 202 on day 40 (its deviation about 2% above
    // day 30's: the same swing again), to 260 on day 50 (well above both). Another channel dips
    // from about 100 to 40 on day 30 and to 35.8 on day 40 (a deviation about 7% above day 30's).
    const M = 'proj_rule_margin';
    await createProject(service, M);
    const spike: Record<number, number> = { 30: 200, 40: 202, 50: 260 };
    const dip: Record<number, number> = { 30: 40, 40: 35.8 };
    await writeKpis(
      service,
      M,
      DATES.flatMap((date, i) => [
        { date, channel: 'creep', spend: Math.round((spike[i] ?? 100 + 2 * noise(i, 7)) * 100) / 100 },
        { date, channel: 'dips', spend: Math.round((dip[i] ?? 100 + 0.5 * noise(i, 9)) * 100) / 100 },
      ]),
    );
    const dipsOf = async () =>
      (
        await service.app.db.query<Row>(
          `SELECT date, status, precedent, baseline_mean FROM anomalies_daily
           WHERE project_id = $1 AND channel = 'dips' AND metric = 'spend' AND date IN ($2, $3) ORDER BY date`,
          [M, DATES[30], DATES[40]],
        )
      ).map((r) => ({ status: r.status as string, dev: Number(r.baseline_mean) - (r.date === DATES[30] ? 40 : 35.8) }));
    const firedOf = async (settings: object) => {
      const res = await api(`${service.url}/api/anomalies/settings?project_id=${M}`, {
        method: 'PUT',
        json: { ...ROBUST, ...settings },
      });
      expect(res.status).toBe(200);
      expect((await api(`${service.url}/api/anomalies/evaluate?project_id=${M}`, { method: 'POST' })).status).toBe(200);
      return (
        await service.app.db.query<Row>(
          `SELECT date, status, precedent, baseline_mean FROM anomalies_daily
           WHERE project_id = $1 AND channel = 'creep' AND metric = 'spend' AND date IN ($2, $3, $4) ORDER BY date`,
          [M, DATES[30], DATES[40], DATES[50]],
        )
      ).map((r): Row => ({ ...r, precedent: r.precedent === null ? null : Number(r.precedent) }));
    };
    // Without a margin any larger deviation is news: all three fire.
    const bare = await firedOf({ precedent_days: 1460, precedent_margin: 0 });
    expect(bare.map((r) => r.status)).toEqual(['fired', 'fired', 'fired']);
    const dev30 = 200 - Number(bare[0]!.baseline_mean);
    const dev40 = 202 - Number(bare[1]!.baseline_mean);
    expect(dev40).toBeGreaterThan(dev30);
    expect(dev40).toBeLessThan(1.04 * dev30);
    // The default margins (8% for a spike, 4% for a drop): day 40 is held against day 30's
    // deviation and is precedented; the deeper dip, 5–8% beyond the first, fires.
    const rows = await firedOf({ precedent_days: 1460 });
    expect(rows.map((r) => r.status)).toEqual(['fired', 'precedented', 'fired']);
    expect(rows[1]!.precedent).toBeCloseTo(dev30, 6);
    expect(rows[2]!.precedent).toBeCloseTo(dev40, 6);
    const dips = await dipsOf();
    expect(dips[1]!.dev / dips[0]!.dev).toBeGreaterThan(1.05);
    expect(dips[1]!.dev / dips[0]!.dev).toBeLessThan(1.08);
    expect(dips.map((r) => r.status)).toEqual(['fired', 'fired']);
    const settings = await api(`${service.url}/api/anomalies/settings?project_id=${M}`);
    expect(settings.body.effective).toMatchObject({
      precedent_days: 1460,
      precedent_margin: 0.08,
      precedent_margin_drop: 0.04,
    });
    // precedent_margin given alone is both sides' margin (as before precedent_margin_drop): at 8%
    // the deeper dip is the same swing again; precedent_margin_drop sets the drops' own.
    await firedOf({ precedent_days: 1460, precedent_margin: 0.08 });
    expect((await dipsOf()).map((r) => r.status)).toEqual(['fired', 'precedented']);
    await firedOf({ precedent_days: 1460, precedent_margin: 0.08, precedent_margin_drop: 0.04 });
    expect((await dipsOf()).map((r) => r.status)).toEqual(['fired', 'fired']);
  });

  it('sustained move: two days each short of the threshold whose z add up past it fire, once', async () => {
    // Its own project: spend about 100 ± 10, at 86 on days 40 and 41 (|z| about 2.7 each, short
    // of ROBUST's 3; together (z40 + z41) / √2 about −3.9).
    const S = 'proj_rule_sustained';
    await createProject(service, S);
    await writeKpis(
      service,
      S,
      DATES.map((date, i) => ({
        date,
        channel: 'slow',
        spend: i === 39 ? 103 : i === 40 || i === 41 ? 86 : Math.round((100 + 10 * noise(i, 8)) * 100) / 100,
      })),
    );
    const rowsOf = async (settings: object) => {
      const res = await api(`${service.url}/api/anomalies/settings?project_id=${S}`, {
        method: 'PUT',
        json: { ...ROBUST, ...settings },
      });
      expect(res.status).toBe(200);
      expect((await api(`${service.url}/api/anomalies/evaluate?project_id=${S}`, { method: 'POST' })).status).toBe(200);
      return service.app.db.query<Row>(
        `SELECT * FROM anomalies_daily WHERE project_id = $1 AND channel = 'slow' AND metric = 'spend' ORDER BY date`,
        [S],
      );
    };
    // Each day alone: nothing fires.
    const alone = await rowsOf({ sustained_days: 1 });
    expect(alone.filter((r) => r.fired)).toEqual([]);
    // The default (2 days): day 41 fires on its z and day 40's, though neither passes |z| 3.
    const rows = await rowsOf({ sustained_days: undefined });
    const [d40, d41] = [rows.find((r) => r.date === DATES[40])!, rows.find((r) => r.date === DATES[41])!];
    expect(d40).toMatchObject({ status: 'ok', fired: false });
    expect(d41).toMatchObject({ status: 'fired', fired: true, direction: 'drop', kind: 'drop' });
    expect(Math.abs(d40.z)).toBeLessThan(3);
    expect(Math.abs(d41.z)).toBeLessThan(3);
    expect((d40.z + d41.z) / Math.SQRT2).toBeLessThanOrEqual(-3);
    expect(rows.filter((r) => r.fired).map((r) => r.date)).toEqual([DATES[41]]);
    const list = await api(`${service.url}/api/anomalies?project_id=${S}&since=${DATES[0]}`);
    expect(list.body.anomalies).toMatchObject([{ channel: 'slow', metric: 'spend', first_date: DATES[41] }]);
    const settings = await api(`${service.url}/api/anomalies/settings?project_id=${S}`);
    expect(settings.body.effective.sustained_days).toBe(2);
    // Evaluating from day 41 reads day 40's quiet z back from its stored row: the same rows.
    for (const from of [DATES[41], DATES[42]]) {
      const res = await api(`${service.url}/api/anomalies/evaluate?project_id=${S}&from=${from}`, { method: 'POST' });
      expect(res.status).toBe(200);
      expect(
        await service.app.db.query<Row>(
          `SELECT * FROM anomalies_daily WHERE project_id = $1 AND channel = 'slow' AND metric = 'spend' ORDER BY date`,
          [S],
        ),
      ).toEqual(rows);
    }
  });

  it('explained: the total and a ratio that moved with a series that fired are told once, by it', async () => {
    // spiky's 1000 lifts the project's total spend that day past |z| 3: explained by spiky, so the
    // total has no anomaly of its own that day (the series route says the same).
    const total = await rowOn('_total', DATES[30]!);
    expect(Math.abs(total.z)).toBeGreaterThanOrEqual(3);
    expect(total).toMatchObject({
      status: 'explained',
      fired: false,
      kind: null,
      explained_by_channel: 'spiky',
      explained_by_metric: 'spend',
    });
    expect((await listOf('_total')).filter((a) => a.first_date === DATES[30])).toEqual([]);
    const series = await api(
      `${service.url}/api/anomalies/series?project_id=${P}&metric=spend&channel=_total&from=${DATES[25]}&to=${DATES[35]}`,
    );
    expect(series.status).toBe(200);
    expect(series.body.points.find((p: Row) => p.date === DATES[30])).toMatchObject({
      status: 'explained',
      fired: false,
      explained_by: { channel: 'spiky', metric: 'spend' },
    });
    // The explaining anomaly lists what moved with it.
    const [spike] = (await listOf('spiky')).filter((a) => a.first_date === DATES[30]);
    const one = await api(`${service.url}/api/anomalies/${spike!.id}`);
    expect(one.body.moved_with_it).toEqual([
      expect.objectContaining({ date: DATES[30], channel: '_total', metric: 'spend', value: total.value }),
    ]);
    expect(one.body.days[0]).toMatchObject({ status: 'fired', explained_by: null });
  });

  it('re-evaluating the last days, across a level shift, gives the rows of a full pass', async () => {
    const snapshot = () =>
      service.app.db.query<Row>('SELECT * FROM anomalies_daily WHERE project_id = $1 ORDER BY channel, metric, date', [
        P,
      ]);
    const episodes = () =>
      service.app.db.query<Row>('SELECT * FROM anomaly_episodes WHERE project_id = $1 ORDER BY id', [P]);
    // Holidays (the default expected_event_types) cover days 38–40 and the run's first day 44:
    // their days are explained or left out of later frames, read back with the history.
    for (const [date, end] of [
      [DATES[38], DATES[40]],
      [DATES[44], null],
    ]) {
      const ev = await api(`${service.url}/api/context/events`, {
        method: 'POST',
        json: {
          project_id: P,
          event_type: 'holiday',
          title: 'Holiday',
          event_date: date,
          end_date: end,
          impact_window_days: 0,
        },
      });
      expect(ev.status).toBe(201);
    }
    // With the defaults' precedents and sustained moves: a one-day evaluation reads them back
    // from the stored rows.
    await put({ precedent_days: 365, sustained_days: 2 });
    const before = await snapshot();
    const beforeEpisodes = await episodes();
    expect(before.filter((r) => r.status === 'precedented').length).toBeGreaterThan(0);
    expect(before.filter((r) => r.explained_by_event).length).toBeGreaterThan(0);
    for (const from of [DATES[37], DATES[39], DATES[45], DATES[59]]) {
      const res = await api(`${service.url}/api/anomalies/evaluate?project_id=${P}&from=${from}&to=${DATES[59]}`, {
        method: 'POST',
      });
      expect(res.status).toBe(200);
      const after = await snapshot();
      expect(after.length).toBe(before.length);
      after.forEach((row, i) => {
        for (const [k, v] of Object.entries(row)) {
          if (typeof v === 'number' && !Number.isInteger(v))
            expect([from, row.channel, row.metric, row.date, k, v]).toEqual([
              from,
              row.channel,
              row.metric,
              row.date,
              k,
              expect.closeTo(before[i]![k], 9),
            ]);
          else expect([k, v]).toEqual([k, before[i]![k]]);
        }
      });
      expect(await episodes()).toEqual(beforeEpisodes);
    }
  });
  it('one day at a time, or a window, taking the precedents saved for the day before, gives a full pass', async () => {
    const rows = () =>
      service.app.db.query<Row>('SELECT * FROM anomalies_daily WHERE project_id = $1 ORDER BY channel, metric, date', [
        P,
      ]);
    const saved = async (asOf: string) =>
      Number(
        (
          await service.app.db.query<{ n: number }>(
            'SELECT count(*) AS n FROM anomaly_precedent_state WHERE project_id = $1 AND as_of = $2',
            [P, asOf],
          )
        )[0]!.n,
      );
    await put({ precedent_days: 365, sustained_days: 2 });
    const full = await rows();
    const evaluate = async (from: string, to: string) =>
      expect(
        (await api(`${service.url}/api/anomalies/evaluate?project_id=${P}&from=${from}&to=${to}`, { method: 'POST' }))
          .status,
      ).toBe(200);
    await evaluate(DATES[0]!, DATES[54]!);
    for (let i = 55; i < 60; i += 1) {
      // What the evaluation of the day before left: the deques this day takes instead of reading
      // a year of rows back (a series with a confirmed anomaly, spiky since the precedent test,
      // is read back all the same).
      expect(await saved(DATES[i - 1]!)).toBeGreaterThan(0);
      await evaluate(DATES[i]!, DATES[i]!);
    }
    expect(await rows()).toEqual(full);
    // A run that re-evaluates its last three days starts from what the day before them left.
    expect(await saved(DATES[56]!)).toBeGreaterThan(0);
    await evaluate(DATES[57]!, DATES[59]!);
    expect(await rows()).toEqual(full);
  });
});

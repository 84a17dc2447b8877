import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis } from '../support/kpis.js';

// Precision: context events of the types in `expected_event_types` explain the days
// they cover (docs/api.md, step 8b). One channel, built to show it: a holiday spike on day 40
// (its event covers days 40–42), a checkout outage on day 55 (an `outage` event covers it), and
// noise around 100 otherwise. With the defaults the holiday is explained and the outage fires.

const P = 'proj_expected';
const DATES = days('2026-03-02', 70);
const HOLIDAY = 40;
const OUTAGE = 55;
const noise = (i: number) => {
  const x = Math.sin((i + 1) * 12.9898) * 43758.5453;
  return 2 * (x - Math.floor(x)) - 1;
};
const spend = (i: number) => (i === HOLIDAY ? 200 : i === OUTAGE ? 40 : Math.round((100 + 3 * noise(i)) * 100) / 100);

type Row = Record<string, any>;

describe.each(STORES)('context events explain the days they cover [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-20T12:00:00Z');
  let holidayId = '';
  let outageId = '';

  const put = async (settings: object) => {
    const res = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, { method: 'PUT', json: settings });
    expect(res.status).toBe(200);
    const ev = await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    expect(ev.status).toBe(200);
    return res.body;
  };
  const anomalyDates = async (channel = 'shop') =>
    (
      (await api(`${service.url}/api/anomalies?project_id=${P}&since=${DATES[0]}&metric=spend&channel=${channel}`)).body
        .anomalies as Row[]
    )
      .map((a) => a.first_date)
      .sort();
  const rowOn = async (i: number, channel = 'shop') =>
    (
      await service.app.db.query<Row>(
        `SELECT * FROM anomalies_daily WHERE project_id = $1 AND channel = $2 AND metric = 'spend' AND date = $3`,
        [P, channel, DATES[i]],
      )
    )[0]!;
  const snapshot = () =>
    service.app.db.query<Row>('SELECT * FROM anomalies_daily WHERE project_id = $1 ORDER BY channel, metric, date', [
      P,
    ]);

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P);
    await writeKpis(
      service,
      P,
      DATES.map((date, i) => ({ date, channel: 'shop', spend: spend(i) })),
    );
    const event = async (json: object) => {
      const res = await api(`${service.url}/api/context/events`, { method: 'POST', json: { project_id: P, ...json } });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    holidayId = await event({
      event_type: 'holiday',
      title: 'Easter Monday',
      event_date: DATES[HOLIDAY],
      impact_window_days: 2,
    });
    outageId = await event({
      event_type: 'outage',
      title: 'Checkout down',
      event_date: DATES[OUTAGE],
      impact_window_days: 0,
    });
  });
  afterAll(async () => service?.close());

  it('a holiday spike fires without its event, is explained by it with the defaults; an outage is not', async () => {
    const off = await put({ expected_event_types: [] });
    expect(off.effective.expected_event_types).toEqual([]);
    expect(await anomalyDates()).toEqual([DATES[HOLIDAY], DATES[OUTAGE]]);
    const before43 = await rowOn(HOLIDAY + 3);

    const on = await put({});
    expect(on.effective.expected_event_types).toEqual(['holiday']);
    // The holiday is no anomaly (no episode, so no alert); the outage, of another type, still is.
    expect(await anomalyDates()).toEqual([DATES[OUTAGE]]);
    const holiday = await rowOn(HOLIDAY);
    expect(holiday.z).toBeGreaterThan(3.5);
    expect(holiday).toMatchObject({
      status: 'explained',
      fired: false,
      kind: null,
      severity: null,
      excluded: true,
      explained_by_event: holidayId,
      explained_by_channel: null,
    });
    // The total moved with it: explained by the event as well, not by the channel.
    expect(await rowOn(HOLIDAY, '_total')).toMatchObject({ status: 'explained', explained_by_event: holidayId });
    expect(await anomalyDates('_total')).toEqual([]);
    // The event's other days are ordinary, and left out of later baselines all the same.
    for (const i of [HOLIDAY + 1, HOLIDAY + 2])
      expect(await rowOn(i)).toMatchObject({ status: 'ok', excluded: true, explained_by_event: null });
    expect((await rowOn(HOLIDAY + 3)).training_size).toBe(before43.training_size - 2);
    expect(await rowOn(OUTAGE)).toMatchObject({ status: 'fired', explained_by_event: null });

    // The chart's series names the event, as the rows do.
    const series = await api(
      `${service.url}/api/anomalies/series?project_id=${P}&metric=spend&channel=shop&from=${DATES[38]}&to=${DATES[56]}`,
    );
    expect(series.status).toBe(200);
    const points = series.body.points as Row[];
    expect(points.find((p) => p.date === DATES[HOLIDAY])).toMatchObject({
      status: 'explained',
      fired: false,
      explained_by: null,
      explained_by_event: { id: holidayId, title: 'Easter Monday', event_type: 'holiday' },
    });
    expect(points.find((p) => p.date === DATES[OUTAGE])).toMatchObject({ status: 'fired', explained_by_event: null });
  });

  it('the setting takes any types, normalized, and refuses what is not a list of labels', async () => {
    const outage = await put({ expected_event_types: ['Outage'] });
    expect(outage.effective.expected_event_types).toEqual(['outage']);
    expect(await anomalyDates()).toEqual([DATES[HOLIDAY]]);
    expect(await rowOn(OUTAGE)).toMatchObject({ status: 'explained', explained_by_event: outageId });
    const bad = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { expected_event_types: 'holiday' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.expected_event_types']);
    const empty = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { expected_event_types: ['--'] },
    });
    expect(empty.status).toBe(400);
  });

  it('an evaluation of the last days, or of one day at a time, gives the rows of a full pass', async () => {
    await put({});
    const full = await snapshot();
    expect(full.filter((r) => r.explained_by_event === holidayId).length).toBeGreaterThan(0);
    const evaluate = async (from: number, to: number) =>
      expect(
        (
          await api(`${service.url}/api/anomalies/evaluate?project_id=${P}&from=${DATES[from]}&to=${DATES[to]}`, {
            method: 'POST',
          })
        ).status,
      ).toBe(200);
    // From inside the event's window, from the day after it, and day by day across it.
    for (const from of [HOLIDAY + 1, HOLIDAY + 3]) {
      await evaluate(from, DATES.length - 1);
      expect(await snapshot()).toEqual(full);
    }
    await evaluate(0, HOLIDAY - 2);
    for (let i = HOLIDAY - 1; i < DATES.length; i += 1) await evaluate(i, i);
    expect(await snapshot()).toEqual(full);
  });

  it('an event created, changed or deleted counts from the next evaluation of the days it covers', async () => {
    // A holiday recorded after the outage was evaluated: the stored rows are as they were...
    await put({});
    const moved = await api(`${service.url}/api/context/events/${holidayId}`, {
      method: 'PATCH',
      json: { event_date: DATES[OUTAGE], impact_window_days: 0 },
    });
    expect(moved.status).toBe(200);
    expect(await rowOn(OUTAGE)).toMatchObject({ status: 'fired' });
    // ...the chart, computed on request, already tells the new story...
    const series = await api(
      `${service.url}/api/anomalies/series?project_id=${P}&metric=spend&channel=shop&from=${DATES[OUTAGE]}&to=${DATES[OUTAGE]}`,
    );
    expect(series.body.points[0]).toMatchObject({ status: 'explained', explained_by_event: { id: holidayId } });
    // ...and the next evaluation of those days stores it.
    await api(`${service.url}/api/anomalies/evaluate?project_id=${P}&from=${DATES[OUTAGE]}`, { method: 'POST' });
    expect(await rowOn(OUTAGE)).toMatchObject({ status: 'explained', explained_by_event: holidayId });
    // Day 40, not evaluated since, keeps what its last evaluation stored (the event named it).
    expect(await anomalyDates()).toEqual([]);
    expect(await rowOn(HOLIDAY)).toMatchObject({ status: 'explained', explained_by_event: holidayId });
    expect((await api(`${service.url}/api/context/events/${holidayId}`, { method: 'DELETE' })).status).toBe(204);
    await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    expect(await anomalyDates()).toEqual([DATES[HOLIDAY], DATES[OUTAGE]]);
  });
});

import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { artifactPath, launchBrowser, seriousViolations, serveStatic, shoot } from '../support/browser.js';
import { ConsoleDriver } from '../support/console.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis } from '../support/kpis.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { ViewHarness } from '../support/view-harness.js';

const P = 'proj_anomaly_band';
// The spike within the console's default range (the 30 days before the clock's today).
const DATES = days('2026-04-10', 37);
const SPIKE = 30;
/** Spend near 100 with a little noise, and one day at 400 (the triage views' fixture). */
const spendOf = (i: number) => (i === SPIKE ? 400 : 100 + (((i * 37) % 11) - 5));

interface BandDay {
  day: string;
  top: number | null;
  bottom: number | null;
  value: number | null;
}

/** The band the chart drew each day (CSS pixels; the chart records it as it draws). */
async function bandOf(chart: Locator): Promise<BandDay[]> {
  await expect.poll(() => chart.getAttribute('data-band')).not.toBeNull();
  return JSON.parse((await chart.getAttribute('data-band'))!) as BandDay[];
}

/**
 * Every day before the fired one has a band the eye can find: it holds the day's value and is at
 * least 9 px tall around the 2 px value line (4σ each side of a quiet series). Before the fix the
 * value axis spanned the band of the days after the spike (σ × 18: the spike sits in their
 * trailing window) and every earlier band was about 5 px, hidden under the line.
 */
function expectBandBeforeFiredDay(band: BandDay[], fired: string) {
  const before = band.filter((d) => d.day < fired);
  expect(before.length).toBeGreaterThan(20);
  for (const d of before) {
    expect(d.top, `${d.day}: no band`).not.toBeNull();
    expect(d.bottom, `${d.day}: no band`).not.toBeNull();
    expect(d.top!, `${d.day}: the band holds the value`).toBeLessThan(d.value!);
    expect(d.bottom!, `${d.day}: the band holds the value`).toBeGreaterThan(d.value!);
    expect(d.bottom! - d.top!, `${d.day}: band height (px)`).toBeGreaterThanOrEqual(9);
  }
}

describe.each(STORES)('the anomaly chart’s ± band covers the days before the fired day [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let hostSite: Awaited<ReturnType<typeof serveStatic>>;
  let fired: { date: string; metric: string; channel: string };
  let series: { points: { date: string; baseline_mean: number | null; baseline_stddev: number | null }[] };
  const clock = new ManualClock('2026-05-18T12:00:00Z');

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P, 'USD', 'UTC');
    await writeKpis(
      service,
      P,
      DATES.map((date, i) => ({ date, channel: 'A', spend: spendOf(i), revenue: 300 })),
    );
    expect((await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' })).status).toBe(200);
    const list = await api(`${service.url}/api/anomalies?project_id=${P}&since=2026-04-10&channel=A&metric=spend`);
    fired = list.body.anomalies[0];
    expect(fired.date).toBe(DATES[SPIKE]);
    const range = `from=${DATES[0]}&to=${DATES.at(-1)}`;
    series = (await api(`${service.url}/api/anomalies/series?project_id=${P}&metric=spend&channel=A&${range}`)).body;
    hostSite = await serveStatic('test-host');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await hostSite?.close();
    await service?.close();
  });

  it('the series has a baseline and σ on the days before the fired one: the band has what it needs', () => {
    const before = series.points.filter((p) => p.date < fired.date && p.date >= DATES[2]!);
    expect(before.length).toBeGreaterThan(20);
    for (const p of before) {
      expect(p.baseline_mean, p.date).not.toBeNull();
      expect(p.baseline_stddev, p.date).toBeGreaterThan(0);
    }
  });

  it('widget at 1280 px: the band shows around every day before the fired one', async () => {
    const views = new ViewHarness(browser, hostSite.url, service.url, store);
    const { frame } = await views.render('get_anomalies', { project_id: P, since: '2026-04-10' });
    const selected = frame.getByRole('region', { name: 'Selected anomaly' });
    await frame.getByRole('button', { name: /^Spend on A, .*: show its chart$/ }).click();
    await views.page.setViewportSize({ width: 1280, height: 900 });
    const chart = selected.locator('[data-band]');
    expectBandBeforeFiredDay(await bandOf(chart), fired.date);
    expect(await seriousViolations(frame)).toEqual([]);
    await shoot(views.page, frame, artifactPath('widgets', store, 'anomaly-band-1280.png'));
    await views.page.close();
  });

  it('console at 1280 px: the same on the anomaly page', async () => {
    const ui = new ConsoleDriver(browser, service.url, store);
    const page = await ui.start();
    try {
      await ui.open(`${P}/anomalies?date=${fired.date}&metric=spend&channel=A`);
      const chart = page.getByRole('region', { name: 'Selected anomaly' }).locator('[data-band]');
      expectBandBeforeFiredDay(await bandOf(chart), fired.date);
      await ui.check('anomaly-band-1280');
    } finally {
      await ui.close();
    }
  });
});

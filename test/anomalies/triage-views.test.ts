import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { artifactPath, launchBrowser, serveStatic, shoot } from '../support/browser.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis } from '../support/kpis.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { ViewHarness } from '../support/view-harness.js';

const P = 'proj_triage_view';
const DATES = days('2026-03-01', 37);
const spendOf = (i: number) => (i === 30 ? 400 : 100 + (((i * 37) % 11) - 5));

describe.each(STORES)('triage in the anomalies view [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let hostSite: Awaited<ReturnType<typeof serveStatic>>;
  let views: ViewHarness;
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
    hostSite = await serveStatic('test-host');
    browser = await launchBrowser();
    views = new ViewHarness(browser, hostSite.url, service.url, store);
  });
  afterAll(async () => {
    await browser?.close();
    await hostSite?.close();
    await service?.close();
  });

  it('shows the selected anomaly’s status and moves it with the buttons the transitions allow', async () => {
    const list = await api(`${service.url}/api/anomalies?project_id=${P}&since=2026-03-01`);
    const first = list.body.anomalies[0] as { id: string };
    const { frame } = await views.render('get_anomalies', { project_id: P, since: '2026-03-01' });
    const group = frame.getByRole('region', { name: 'Triage' });
    await group.waitFor();
    await group.locator('.badge', { hasText: /^open$/ }).waitFor();
    const names = async () => group.getByRole('button').allTextContents();
    expect(await names()).toEqual(['Acknowledge', 'Resolve', 'Expected', 'False positive']);
    await group.getByRole('button', { name: 'Acknowledge' }).click();
    await group.locator('.badge', { hasText: /^acknowledged$/ }).waitFor();
    expect(await names()).toEqual(['Reopen', 'Resolve', 'Expected', 'False positive']);
    await group.getByRole('button', { name: 'False positive' }).click();
    await group.locator('.badge', { hasText: /^false positive$/ }).waitFor();
    expect(await names()).toEqual(['Reopen']);
    const triage = await api(`${service.url}/api/anomalies/${first.id}/triage`);
    expect(triage.body).toMatchObject({ status: 'false_positive', previous_status: 'false_positive' });
    for (const width of [390, 1280]) {
      await views.page.setViewportSize({ width, height: 900 });
      await shoot(views.page, frame, artifactPath('widgets', store, `anomalies-triage-${width}.png`));
    }
    await views.check(frame, 'anomalies-triage');
  });
});

import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/platform/calendar.js';
import { ManualClock } from '../../src/platform/clock.js';
import { WebhookReceiver } from '../support/alert-receivers.js';
import { launchBrowser, serveStatic } from '../support/browser.js';
import { ConsoleDriver } from '../support/console.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis } from '../support/kpis.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { ViewHarness } from '../support/view-harness.js';
import { ALERT_ENV, createDestination, createRule } from '../alerts/support.js';

const P = 'proj_deep_links';
const BASE = ALERT_ENV.PUBLIC_BASE_URL;
// Every date of the fixture comes from the service's clock: today and the same day a year before
// each get one spike of spend on channel A, on a steady series long enough to train both baselines.
const clock = new ManualClock('2026-06-15T12:00:00Z');
const TODAY = todayIn(clock, 'UTC');
const YEAR_AGO = addDays(TODAY, -365);
const DATES = days(addDays(TODAY, -400), 401);
// Today's spike is the larger: the year-old one is its precedent, which a smaller move would not pass.
const spendOf = (date: string, i: number) =>
  date === TODAY ? 900 : date === YEAR_AGO ? 420 : 100 + (((i * 37) % 11) - 5);

interface Anomaly {
  id: string;
  date: string;
  first_date: string;
  last_date: string;
  metric: string;
  channel: string;
}

interface Message {
  console_url: string;
  items: { id: string; url: string }[];
}
/** A Standard Webhooks body: the message is its data. */
const messageOf = (body: unknown) => (body as { data: Message }).data;

/** The console page opened: the named anomaly is the selected one, charted and explained. */
async function expectAnomalyPage(page: Page, id: string) {
  const selected = page.getByRole('region', { name: 'Selected anomaly' });
  await expect.poll(() => selected.getAttribute('data-anomaly-id')).toBe(id);
  await selected.locator('[data-band]').waitFor();
  await page.getByRole('region', { name: 'Explanation' }).getByRole('heading', { name: 'Why it moved' }).waitFor();
}

/** The widget rendered: the named anomaly is selected and charted. */
async function expectAnomalyView(frame: Frame, id: string) {
  const selected = frame.getByRole('region', { name: 'Selected anomaly' });
  await expect.poll(() => selected.getAttribute('data-anomaly-id')).toBe(id);
  await selected.locator('[data-band]').waitFor();
}

describe.each(STORES)('every link to an anomaly opens it, of today and of a year ago [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let ui: ConsoleDriver;
  let page: Page;
  const receiver = new WebhookReceiver();
  let today: Anomaly;
  let yearOld: Anomaly;
  /** A product link (https://hub.example.com/console/…) as the path under this service's console. */
  const consolePath = (url: string) => {
    expect(url.startsWith(`${BASE}/console/`), url).toBe(true);
    return url.slice(`${BASE}/console/`.length);
  };

  beforeAll(async () => {
    await receiver.start();
    service = await startService(store, { clock, env: ALERT_ENV });
    await createProject(service, P, 'USD', 'UTC');
    await writeKpis(
      service,
      P,
      DATES.flatMap((date, i) => [
        { date, channel: 'A', spend: spendOf(date, i), revenue: 300, conversions: 30, clicks: 900, impressions: 9000 },
        { date, channel: 'B', spend: 100, revenue: 250, conversions: 25, clicks: 800, impressions: 8000 },
      ]),
    );
    expect((await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' })).status).toBe(200);
    const all = (await api(`${service.url}/api/anomalies?project_id=${P}&since=2000-01-01&channel=A&metric=spend`)).body
      .anomalies as Anomaly[];
    today = all.find((a) => a.date === TODAY)!;
    yearOld = all.find((a) => a.date === YEAR_AGO)!;
    expect(today, JSON.stringify(all)).toBeDefined();
    expect(yearOld, JSON.stringify(all)).toBeDefined();
    // The daily insight of both days, as the composer writes it after a run.
    for (const day of [TODAY, YEAR_AGO]) await service.app.services.evaluators.insights.compose(P, day, clock.now());
    browser = await launchBrowser();
    ui = new ConsoleDriver(browser, service.url, store);
    page = await ui.start();
  }, 120_000);
  afterAll(async () => {
    await ui?.close();
    await browser?.close();
    await service?.close();
    await receiver.close();
  });

  it('the API widens its window to what a link names and answers it as focus', async () => {
    const base = `${service.url}/api/anomalies?project_id=${P}`;
    const byDefault = (await api(base)).body;
    expect(byDefault.since).toBe(addDays(TODAY, -30));
    expect(byDefault.anomalies.map((a: Anomaly) => a.id)).not.toContain(yearOld.id);
    const byId = (await api(`${base}&anomaly_id=${yearOld.id}`)).body;
    expect(byId.since).toBe(yearOld.first_date);
    expect(byId.focus.id).toBe(yearOld.id);
    expect(byId.anomalies.map((a: Anomaly) => a.id)).toContain(yearOld.id);
    const byDay = (await api(`${base}&date=${YEAR_AGO}&metric=spend&channel=A`)).body;
    expect(byDay.since).toBe(YEAR_AGO);
    expect(byDay.focus.id).toBe(yearOld.id);
    // An explicit window that already holds the day is kept.
    const kept = (await api(`${base}&since=2000-01-01&date=${TODAY}&metric=spend&channel=A`)).body;
    expect([kept.since, kept.focus.id]).toEqual(['2000-01-01', today.id]);
    // A day nothing fired on widens the window all the same and names no focus.
    expect((await api(`${base}&date=${addDays(YEAR_AGO, -3)}&metric=spend&channel=A`)).body.focus).toBeNull();
    const missing = await api(`${base}&anomaly_id=anom_${'0'.repeat(24)}`);
    expect([missing.status, missing.body.code]).toEqual([404, 'anomaly_not_found']);
  });

  it('alerts: the link of each item and of the message open a page that holds them', async () => {
    const hook = await createDestination(service, {
      project_id: P,
      name: 'Links',
      kind: 'webhook',
      secrets: { url: receiver.url },
    });
    receiver.secret = hook.signing_secret!;
    await createRule(service, { project_id: P, name: 'Anomalies', on: ['anomaly'], destinations: [hook.id] });
    const payloadOf = (a: Anomaly) => ({
      id: a.id,
      metric: a.metric,
      channel: a.channel,
      kind: 'spike',
      direction: 'spike',
      first_date: a.first_date,
      last_date: a.last_date,
      peak_date: a.date,
      value: 420,
      baseline: 100,
      z: 9,
      score: 0.75,
      severity: 'high',
    });
    // The facts a run's after-run job publishes (what it found, then that it closed), for two runs.
    const facts = service.app.services.evaluators.facts;
    const runFound = async (runId: string, found: Anomaly[]) => {
      await facts.publish('anomaly.detected', P, { run_id: runId, anomalies: found.map(payloadOf) }, clock.now());
      await facts.publish('dataset.transformed', P, { run_id: runId }, clock.now());
    };
    await runFound('run_deep_links_1', [yearOld]);
    const [single] = await receiver.received(1);
    const one = messageOf(single!.json);
    // A second message claims only the item no message of the rule held yet: a new rule for it.
    await createRule(service, { project_id: P, name: 'Anomalies again', on: ['anomaly'], destinations: [hook.id] });
    await runFound('run_deep_links_2', [today, yearOld]);
    const hits = await receiver.received(3);
    const both = hits
      .slice(1)
      .map((h) => messageOf(h.json))
      .find((m) => m.items.length === 2)!;
    expect(both, 'the second rule’s message holds both anomalies').toBeDefined();
    expect(single!.problems).toEqual([]);

    // One anomaly: the message and its item both open that anomaly.
    for (const url of [one.console_url, one.items[0]!.url]) {
      await ui.open(consolePath(url));
      await expectAnomalyPage(page, yearOld.id);
    }
    // Each item of a message opens its own anomaly; the message's link lists every one of them.
    for (const item of both.items) {
      await ui.open(consolePath(item.url));
      await expectAnomalyPage(page, item.id);
    }
    await ui.open(consolePath(both.console_url));
    const rows = page.getByRole('table').locator('tbody tr');
    await rows.first().waitFor();
    const listed = await page.getByRole('table').locator('tbody').textContent();
    for (const a of [today, yearOld])
      expect(listed).toContain(new Date(`${a.date}T00:00:00Z`).getUTCFullYear().toString());
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    await ui.check('deep-links-alert-list');
  });

  it('console: ?anomaly= and date/metric/channel open the anomaly; the window shows and can be changed', async () => {
    for (const a of [today, yearOld]) {
      await ui.open(`${P}/anomalies?anomaly=${a.id}`);
      await expectAnomalyPage(page, a.id);
      await ui.open(`${P}/anomalies?date=${a.date}&metric=${a.metric}&channel=${a.channel}`);
      await expectAnomalyPage(page, a.id);
    }
    // The window in use is the linked day's; narrowed to the last week, the year-old one leaves the list.
    const from = page.getByLabel('Fired from');
    expect(await from.inputValue()).toBe(YEAR_AGO);
    await from.fill(addDays(TODAY, -7));
    await page.getByLabel('Fired from').dispatchEvent('change');
    await expect.poll(() => page.locator('[data-window]').getAttribute('data-window')).toBe(`${addDays(TODAY, -7)}|`);
    const table = page.getByRole('table', { name: 'Fired anomalies' });
    await expect
      .poll(async () => (await table.locator('tbody').textContent()) ?? '')
      .not.toContain(String(Number(TODAY.slice(0, 4)) - 1));
    await ui.check('deep-links-window');
  });

  it('console: the overview and the insight of a day link to their anomalies', async () => {
    await ui.open(`${P}/overview`);
    const recent = page.getByRole('link', { name: /Spend · A/ }).first();
    await recent.click();
    await expectAnomalyPage(page, today.id);
    for (const a of [today, yearOld]) {
      await ui.open(`${P}/insights?date=${a.date}`);
      const day = page.getByRole('region', { name: 'Anomalies of the day' });
      await day.getByRole('link', { name: /Spend · A/ }).click();
      await expectAnomalyPage(page, a.id);
    }
    await ui.check('deep-links-insight');
  });

  it('tool answers: the ids an answer names open in the anomalies view, by id or by day', async () => {
    const client = await connectModern(service.url);
    const host = await serveStatic('test-host');
    const views = new ViewHarness(browser, host.url, service.url, store);
    try {
      for (const a of [today, yearOld]) {
        const insight = await client.callTool({
          name: 'get_daily_insight',
          arguments: { project_id: P, date: a.date },
        });
        const text = (insight.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
        expect(text).toContain(a.id);
        const byId = await views.render('get_anomalies', { project_id: P, anomaly_id: a.id });
        await expectAnomalyView(byId.frame, a.id);
        const byDay = await views.render('get_anomalies', {
          project_id: P,
          date: a.date,
          metric: 'spend',
          channel: 'A',
        });
        await expectAnomalyView(byDay.frame, a.id);
      }
      await views.check(views.page.frames().find((f) => f !== views.page.mainFrame())!, 'anomalies-deep-link');
    } finally {
      await views.page?.close();
      await host.close();
      await client.close();
    }
  });
});

import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { artifactPath, launchBrowser, seriousViolations, serveStatic, shoot } from '../support/browser.js';
import { ConsoleDriver } from '../support/console.js';
import { createProject } from '../support/flows.js';
import { days, type KpiPoint, writeKpis } from '../support/kpis.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { ViewHarness } from '../support/view-harness.js';

const P = 'proj_explain_layout';
// The spike within the console's default range (the 30 days before the clock's today).
const DATES = days('2026-04-10', 38);
const SPIKE = 30;
const noise = (i: number) => ((i * 37) % 11) - 5;

/**
 * Five channels with the identifiers the demo has (underscored, long enough to be cut), and a day
 * on which paid_search spends four times as much at the same revenue while paid_social spends
 * less: total spend and ROAS fire, and paid_social's share of the spend change is negative.
 */
const CHANNELS: [string, number, number][] = [
  ['paid_search', 100, 300],
  ['paid_social', 80, 160],
  ['display', 50, 60],
  ['video', 40, 50],
  ['shopping', 60, 200],
];
const points: KpiPoint[] = DATES.flatMap((date, i) =>
  CHANNELS.map(([channel, spend, revenue]) => {
    // Conversions enough for the ROAS volume guard.
    if (i === SPIKE && channel === 'paid_search') return { date, channel, spend: 400, revenue, conversions: 20 };
    if (i === SPIKE && channel === 'paid_social') return { date, channel, spend: 50, revenue: 100, conversions: 20 };
    return { date, channel, spend: spend + noise(i), revenue: revenue + noise(i + 3), conversions: 20 };
  }),
);

interface Part {
  label: string;
  share_of_change: number | null;
  share_of_largest: number;
}

/** What the parts table shows, measured in the browser: lines, overflow, layout, bars, shares. */
function measure(region: Locator) {
  return region.evaluate((el) => {
    const rows = [...el.querySelectorAll('tbody tr')].map((tr) => {
      const name = tr.querySelector('th')!;
      const range = document.createRange();
      range.selectNodeContents(name);
      const box = name.getBoundingClientRect();
      const figure = tr.querySelector('td')!.getBoundingClientRect();
      const track = tr.querySelector('.bar-track')!.getBoundingClientRect();
      const fill = tr.querySelector('.bar-fill')!.getBoundingClientRect();
      return {
        name: name.textContent,
        // Line boxes the name's text lies on: one unless it was broken.
        lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
        nameOverflow: name.scrollWidth - name.clientWidth,
        /** The name on a line of its own, the figures under it (the narrow layout). */
        stacked: figure.top >= box.bottom - 1,
        bar: fill.width / track.width,
        share: tr.querySelector('td.share')!.textContent,
      };
    });
    return { overflow: el.scrollWidth - el.clientWidth, rows };
  });
}

/** The table at `width` shows every part whole, in the layout of that width, with the server's shares. */
async function expectReadable(region: Locator, parts: Part[], width: number) {
  const m = await measure(region);
  expect(m.overflow, `${width} px: the table scrolls sideways`).toBeLessThanOrEqual(0);
  expect(m.rows.map((r) => r.name)).toEqual(parts.map((p) => p.label));
  for (const [i, row] of m.rows.entries()) {
    expect(row.lines, `${width} px: ${row.name} is broken over lines`).toBe(1);
    expect(row.nameOverflow, `${width} px: ${row.name} overflows its cell`).toBeLessThanOrEqual(0);
    expect(row.stacked, `${width} px: ${row.name}'s layout`).toBe(width < 600);
    expect(Math.abs(row.bar - parts[i]!.share_of_largest), `${row.name}'s bar`).toBeLessThan(0.02);
    // The share the server computed, whole percent with the minus sign (U+2212), never a hyphen.
    const share = parts[i]!.share_of_change!;
    const percent = Math.round(share * 100);
    expect(row.share).toBe(`${percent < 0 ? '\u2212' : ''}${Math.abs(percent)}%`);
  }
}

describe.each(STORES)('the explanation’s parts at 390 and 1280 px [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let hostSite: Awaited<ReturnType<typeof serveStatic>>;
  let eventTitle: string;
  const anomalies: Record<string, { id: string; date: string; metric: string; channel: string }> = {};
  const explanations: Record<string, { decomposition: { parts: Part[] } }> = {};
  const clock = new ManualClock('2026-05-18T12:00:00Z');

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P, 'USD', 'UTC');
    await writeKpis(service, P, points);
    eventTitle = 'Search budget quadrupled by mistake';
    const ev = await api(`${service.url}/api/context/events`, {
      method: 'POST',
      json: {
        project_id: P,
        event_type: 'incident',
        title: eventTitle,
        event_date: DATES[SPIKE],
        impact_window_days: 0,
      },
    });
    expect(ev.status).toBe(201);
    // The default rule reports the total and ROAS as explained by paid_search's own anomaly; this
    // file is about how a total's parts are laid out, so the total and ROAS fire themselves here.
    const settings = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { explain_related: false },
    });
    expect(settings.status).toBe(200);
    expect((await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' })).status).toBe(200);
    const list = await api(`${service.url}/api/anomalies?project_id=${P}&since=2026-04-10&channel=_total`);
    for (const a of list.body.anomalies) if (a.date === DATES[SPIKE]) anomalies[a.metric] = a;
    expect(Object.keys(anomalies)).toEqual(expect.arrayContaining(['spend', 'roas']));
    for (const metric of ['spend', 'roas']) {
      const res = await api(`${service.url}/api/anomalies/${anomalies[metric]!.id}/explain`);
      expect(res.status).toBe(200);
      explanations[metric] = res.body;
    }
    // The fixture holds what the checks are about: an underscored name, a part that moved against.
    expect(explanations.spend!.decomposition.parts.some((p) => p.share_of_change! < 0)).toBe(true);
    hostSite = await serveStatic('test-host');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await hostSite?.close();
    await service?.close();
  });

  it('widget: every channel on one line, stacked at 390 px, a table at 1280 px, axe-clean', async () => {
    const views = new ViewHarness(browser, hostSite.url, service.url, store);
    for (const metric of ['spend', 'roas']) {
      const { frame } = await views.render('explain_anomaly', { project_id: P, anomaly_id: anomalies[metric]!.id });
      const region = frame.getByRole('region', { name: 'Contribution of each channel' });
      await region.locator('tbody tr').first().waitFor();
      for (const width of [390, 1280]) {
        await views.page.setViewportSize({ width: width + 60, height: 900 });
        await views.page.locator('#frame-box').evaluate((el, w) => {
          (el as HTMLElement).style.maxWidth = `${w}px`;
        }, width);
        await expect.poll(() => frame.evaluate(() => document.documentElement.clientWidth)).toBe(width);
        await expectReadable(region, explanations[metric]!.decomposition.parts, width);
        // The header row is hidden when narrow, not gone: each cell is still named by its column.
        const header = region.getByRole('columnheader', { name: metric === 'roas' ? 'Mix' : 'Contribution' });
        expect(await header.count()).toBe(1);
        expect(await seriousViolations(frame), `widget ${metric} ${width} px: axe`).toEqual([]);
        await shoot(views.page, frame, artifactPath('widgets', store, `explain-layout-${metric}-${width}.png`));
      }
      await views.page.close();
    }
  });

  it('console: the anomaly page’s panel reads the same at 390 and 1280 px', async () => {
    const ui = new ConsoleDriver(browser, service.url, store);
    const page = await ui.start();
    try {
      for (const metric of ['spend', 'roas']) {
        const a = anomalies[metric]!;
        await ui.open(`${P}/anomalies?date=${a.date}&metric=${a.metric}&channel=_total`);
        const panel = page.getByRole('region', { name: 'Explanation' });
        const region = panel.getByRole('region', { name: 'Contribution of each channel' });
        await region.locator('tbody tr').first().waitFor();
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          const panelWidth = await panel.evaluate((el) => el.getBoundingClientRect().width);
          await expectReadable(region, explanations[metric]!.decomposition.parts, panelWidth < 600 ? 390 : 1280);
          await ui.check(`explain-layout-${metric}-${width}`);
        }
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    } finally {
      await ui.close();
    }
  });

  it('explain_anomaly’s summary writes a negative share with the minus sign too', async () => {
    const client = await connectModern(service.url);
    try {
      const r = await client.callTool({
        name: 'explain_anomaly',
        arguments: { project_id: P, anomaly_id: anomalies.spend!.id },
      });
      const text = (r.content as { type: string; text: string }[])[0]!.text;
      const social = text.split('\n').find((l) => l.startsWith('- paid_social'));
      expect(social).toMatch(/^- paid_social −\d[\d.,]*, −\d+% of it$/);
      expect(text).not.toMatch(/-\d+% of it/);
    } finally {
      await client.close();
    }
  });

  it('widget: with the explanation open, the anomaly’s context events are listed once', async () => {
    const views = new ViewHarness(browser, hostSite.url, service.url, store);
    const { frame } = await views.render('get_anomalies', { project_id: P, since: '2026-04-10' });
    const selected = frame.getByRole('region', { name: 'Selected anomaly' });
    // The list's first anomaly is selected; pick the total's spend on the day of the spike.
    const spend = frame.getByRole('button', { name: /^Spend on All channels, .*: show its chart$/ });
    await spend.first().click();
    const cardList = selected.getByRole('list', { name: 'Context events', exact: true });
    await cardList.getByText(eventTitle).waitFor();
    await selected.getByRole('button', { name: 'Why did it move?' }).click();
    const explained = selected.getByRole('list', { name: 'Context events of these days' });
    await explained.getByText(eventTitle).waitFor();
    expect(await cardList.count()).toBe(0);
    // Once in a list of events (the chart's numbered legend names its markers, not the events).
    const listed = selected.locator('ul li', { hasText: eventTitle });
    expect(await listed.count()).toBe(1);
    await views.check(frame, 'explain-layout-events');
  });
});

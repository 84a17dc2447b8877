import type { Client } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifactPath,
  chartBadgesClear,
  launchBrowser,
  seriousViolations,
  serveStatic,
  shoot,
} from '../support/browser.js';
import { tallestRowInLines } from '../support/table-layout.js';
import { ViewHarness } from '../support/view-harness.js';
import { createProject, type Run } from '../support/flows.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';

type Structured<T> = { structuredContent: { data: T }; _meta?: Record<string, unknown>; isError?: boolean };
/** The whole data of an enveloped answer (the app channel holds what the text channel withheld). */
const dataOf = <T>(r: unknown): T => {
  const res = r as Structured<T>;
  const payload = res._meta?.['service.app_payload'] as { data: T } | undefined;
  return payload?.data ?? res.structuredContent.data;
};

/** Polls (bounded) until `probe` answers something truthy. */
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 600; i += 1) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen`);
}

describe.each(STORES)('data views in a real browser [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let hostSite: Awaited<ReturnType<typeof serveStatic>>;
  let client: Client;
  let views: ViewHarness;

  beforeAll(async () => {
    // The demo with its 120-day backfill settled (demo-store.ts): the views need its KPIs,
    // anomalies, checks and insight.
    service = await startService(store, { demo: true });
    const runs = (await api(`${service.url}/api/flows/runs?project_id=${P}`)).body.runs as Run[];
    expect(runs.map((r) => r.status)).toEqual(['succeeded']);
    for (const definition of [
      {
        name: 'Daily revenue',
        dataset: 'kpis_daily',
        metrics: ['revenue', 'spend', 'roas'],
        dimensions: ['date', 'currency'],
        date_range: { relative: 'last_28_days' },
      },
      {
        name: 'Spend by channel',
        dataset: 'kpis_daily',
        metrics: ['spend', 'revenue'],
        dimensions: ['channel', 'currency'],
        date_range: { relative: 'last_28_days' },
      },
      {
        name: 'Spend by campaign',
        dataset: 'ad_performance_daily',
        metrics: ['spend'],
        dimensions: ['campaign_name'],
        date_range: { relative: 'last_28_days' },
      },
    ]) {
      const res = await api(`${service.url}/api/flows/upsert`, {
        method: 'POST',
        json: { project_id: P, kind: 'report_definition', definition },
      });
      expect(res.status).toBe(200);
    }
    client = await connectModern(service.url, undefined, { apps: true });
    hostSite = await serveStatic('test-host');
    browser = await launchBrowser();
    views = new ViewHarness(browser, hostSite.url, service.url, store);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await hostSite?.close();
    await client?.close();
    await service?.close();
  });

  it('app-only tools are listed for apps only, and the chart baseline is the anomaly model’s own', async () => {
    const { tools } = await client.listTools();
    for (const name of ['get_kpi_series', 'get_metric_series', 'get_run_status']) {
      const tool = tools.find((t) => t.name === name);
      expect((tool?._meta as { ui?: { visibility?: string[] } })?.ui?.visibility, name).toEqual(['app']);
      expect(tool?.annotations?.readOnlyHint, name).toBe(true);
    }
    const anomalies = dataOf<{ anomalies: Record<string, any>[] }>(
      await client.callTool({ name: 'get_anomalies', arguments: { project_id: P, since: '2000-01-01' } }),
    ).anomalies;
    expect(anomalies.length).toBeGreaterThan(0);
    for (const a of anomalies.slice(0, 3)) {
      const series = dataOf<{ rule: { threshold: number }; points: Record<string, any>[] }>(
        await client.callTool({
          name: 'get_metric_series',
          arguments: { project_id: P, metric: a.metric, channel: a.channel, from: a.window.from, to: a.date },
        }),
      );
      const point = series.points.find((p) => p.date === a.date)!;
      expect(point.value).toBeCloseTo(a.value, 6);
      expect(point.baseline_mean).toBeCloseTo(a.baseline_mean, 6);
      expect(point.baseline_stddev).toBeCloseTo(a.baseline_stddev, 6);
      expect(point.training_size).toBe(a.training_size);
      expect(point.fired).toBe(true);
      expect(Math.abs(point.value - point.baseline_mean)).toBeGreaterThanOrEqual(
        series.rule.threshold * point.baseline_stddev,
      );
    }
    // A run of another project reads as missing, whatever its id.
    await createProject(service, 'proj_elsewhere');
    const runs = (await api(`${service.url}/api/flows/runs?project_id=${P}`)).body.runs as Run[];
    const own = await client.callTool({ name: 'get_run_status', arguments: { project_id: P, run_id: runs[0]!.id } });
    expect(dataOf<{ run: Run }>(own).run.status).toBe('succeeded');
    const other = await client.callTool({
      name: 'get_run_status',
      arguments: { project_id: 'proj_elsewhere', run_id: runs[0]!.id },
    });
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toContain('run_not_found');
  });

  it('get_kpis: a card per KPI with a signed delta coloured by whether up is good, sparklines, a chart', async () => {
    const { frame, run } = await views.render('get_kpis', { project_id: P });
    expect(run.resourceUri).toBe('ui://context-hub/kpis.html');
    await frame.getByRole('heading', { name: /^KPIs/ }).waitFor();
    const cards = frame.locator('button.kpi-card');
    expect(await cards.count()).toBe(9);
    // The series of both periods comes from get_kpi_series: the sparklines then span both.
    await frame.locator('svg[aria-label^="CPA per day"][aria-label*=" to "]').waitFor();
    expect(await frame.locator('button.kpi-card svg polyline').count()).toBe(9);
    for (const [label, upIsGood] of [
      ['CPA', false],
      ['ROAS', true],
    ] as const) {
      const delta = frame.locator('button.kpi-card', { hasText: label }).locator('.delta');
      const text = (await delta.textContent()) ?? '';
      const cls = (await delta.getAttribute('class')) ?? '';
      if (text.includes('+')) expect(cls).toContain(upIsGood ? 'tone-good' : 'tone-bad');
      else if (/[-−]/.test(text)) expect(cls).toContain(upIsGood ? 'tone-bad' : 'tone-good');
    }
    await expect(frame.locator('button.kpi-card', { hasText: 'Revenue' }).textContent()).resolves.toMatch(/\$/);
    await frame.getByRole('button', { name: /^ROAS\b/ }).click();
    await frame.getByRole('heading', { name: 'ROAS per day' }).waitFor();
    await frame.locator('section[aria-label="ROAS per day"] canvas').first().waitFor();
    await views.check(frame, 'kpis');
  });

  it('get_anomalies: the list; a selected anomaly charts its series, baseline band, fired point and events', async () => {
    const { frame } = await views.render('get_anomalies', { project_id: P, since: '2000-01-01' });
    await frame.getByRole('heading', { name: 'Anomalies' }).waitFor();
    const rows = frame.locator('table.select tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    const section = frame.getByRole('region', { name: 'Selected anomaly' });
    await section.locator('canvas').first().waitFor();
    const legend = section.locator('.legend');
    await legend.getByText(/± \d+(\.\d+)? σ/).waitFor();
    await legend.getByText('fired', { exact: true }).waitFor();
    // Select, by keyboard, an anomaly that a context event explains: its marker joins the chart.
    const withEvents = rows.filter({ hasNot: frame.locator('td:last-child', { hasText: /^–$/ }) });
    expect(await withEvents.count()).toBeGreaterThan(1);
    const button = withEvents.nth(1).getByRole('button');
    const heading = await section.getByRole('heading', { level: 2 }).textContent();
    await button.focus();
    await views.page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    await frame.waitForFunction(
      (before) => document.querySelector('section[aria-label="Selected anomaly"] h2')?.textContent !== before,
      heading,
    );
    await legend.getByText('context event', { exact: true }).waitFor();
    await section.getByRole('list', { name: 'Context events' }).waitFor();
    await section.locator('canvas').first().waitFor();
    // Each context event on the chart is a numbered badge above the plot, named in the list below it.
    const marked = section.getByRole('list', { name: 'Events marked on the chart' });
    const items = await marked.getByRole('listitem').allTextContents();
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]).toMatch(/^1Marker 1: \w{3} \d{1,2} \S/);
    // At a phone's width and a wide screen's, the badges stay apart and inside the plot; looked at.
    const chart = section.locator('[data-badges]');
    for (const width of [390, 1280]) {
      await views.page.setViewportSize({ width: width + 60, height: 900 });
      await views.page.locator('#frame-box').evaluate((el, w) => {
        (el as HTMLElement).style.maxWidth = `${w}px`;
      }, width);
      await expect
        .poll(() => chart.evaluate((el: HTMLElement) => Math.round(el.getBoundingClientRect().width)))
        .toBeGreaterThan(width - 80);
      await expect.poll(() => chart.evaluate((el: HTMLElement) => JSON.parse(el.dataset.plot!)[1])).toBeLessThan(width);
      expect(await chartBadgesClear(chart)).toBe(items.length);
      // The list scrolls sideways rather than squeezing an event's title to a word per line: no row
      // is taller than three lines of its text.
      const tallest = await tallestRowInLines(frame.locator('table.select'));
      expect(tallest, `${width} px: the tallest row, in lines`).toBeLessThanOrEqual(3.5);
      await shoot(views.page, frame, artifactPath('widgets', store, `anomalies-chart-${width}.png`));
    }
    await views.page.locator('#frame-box').evaluate((el) => {
      (el as HTMLElement).style.maxWidth = '';
    });
    await views.page.setViewportSize({ width: 820, height: 900 });
    await views.check(frame, 'anomalies');
  });

  it('get_daily_insight: KPI deltas, fired anomalies, active events, the narrative; days switch', async () => {
    const { frame } = await views.render('get_daily_insight', { project_id: P });
    const h1 = frame.getByRole('heading', { level: 1, name: /Daily insight/ });
    await h1.waitFor();
    const first = await h1.textContent();
    expect(await frame.locator('table tbody tr').count()).toBe(9);
    await frame.getByRole('heading', { name: /Anomalies that fired/ }).waitFor();
    await frame.getByRole('heading', { name: /Context events active/ }).waitFor();
    await frame.getByText('Narrative').click();
    await frame.locator('details .markdown h3').first().waitFor();
    await frame.getByRole('button', { name: /Previous day/ }).click();
    await frame.waitForFunction((t) => document.querySelector('h1')?.textContent !== t, first);
    await views.check(frame, 'insight');
  });

  it('get_data_quality: health, open failures and the ledger with status badges; the filter works', async () => {
    const { frame } = await views.render('get_data_quality', { project_id: P });
    await frame.getByRole('heading', { name: 'Data quality' }).waitFor();
    await frame.getByText('Pass rate, 7 days').waitFor();
    await frame.getByText(/Freshness · Demo ad platform/).waitFor();
    expect(await frame.locator('table tbody tr').count()).toBeGreaterThan(0);
    await frame.getByLabel('Status').selectOption('pass');
    const badges = await frame.locator('table tbody .badge').allTextContents();
    expect(badges.length).toBeGreaterThan(0);
    expect(new Set(badges)).toEqual(new Set(['pass']));
    // In a phone-wide host the ledger scrolls sideways: the keyboard reaches that scroll too.
    await views.page.locator('iframe').evaluate((el) => {
      (el as HTMLElement).style.width = '390px';
    });
    const ledger = frame.getByRole('region', { name: 'Newest data-quality checks' });
    await expect.poll(() => ledger.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await ledger.focus();
    await ledger.press('ArrowRight');
    await expect.poll(() => ledger.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    expect(await seriousViolations(frame)).toEqual([]);
    await views.page.locator('iframe').evaluate((el) => {
      (el as HTMLElement).style.width = '';
    });
    await views.check(frame, 'data-quality');
  });

  it('run_report: a line over a date dimension with a metric picker, and the table', async () => {
    const { frame } = await views.render('run_report', { project_id: P, name: 'Daily revenue' });
    await frame.getByRole('heading', { name: 'Daily revenue' }).waitFor();
    await frame.locator('figure.chart canvas').first().waitFor();
    expect(await frame.locator('table tbody tr').count()).toBeGreaterThan(20);
    expect(await frame.locator('table tbody').textContent()).toMatch(/\$/);
    await frame.getByLabel('Metric').selectOption('roas');
    await frame.locator('figure.chart [aria-label^="ROAS per day"]').waitFor();
    await views.check(frame, 'report-line');
  });

  it('run_report: bars when no dimension is a date', async () => {
    const { frame } = await views.render('run_report', { project_id: P, name: 'Spend by channel' });
    await frame.getByRole('heading', { name: 'Spend by channel' }).waitFor();
    const bars = frame.locator('.bar-row');
    expect(await bars.count()).toBeGreaterThan(1);
    expect(await bars.first().textContent()).toMatch(/\$/);
    expect(await frame.locator('figure.chart').count()).toBe(0);
    await views.check(frame, 'report-bars');
  });

  it("run_report: money in the project's currency when no column names one", async () => {
    const { frame } = await views.render('run_report', { project_id: P, name: 'Spend by campaign' });
    await frame.getByRole('heading', { name: 'Spend by campaign' }).waitFor();
    expect(await frame.locator('.bar-row').first().textContent()).toMatch(/\$\d/);
    expect(await frame.locator('table tbody').textContent()).toMatch(/\$\d/);
  });

  it('list_context_events: a timeline with a type filter', async () => {
    const { frame } = await views.render('list_context_events', { project_id: P });
    await frame.getByRole('heading', { name: 'Context events' }).waitFor();
    const items = frame.locator('ol.timeline > li');
    const all = await items.count();
    expect(all).toBeGreaterThan(3);
    await frame.getByText('Checkout v2 released').waitFor();
    await frame.getByLabel('Type').selectOption('release');
    const types = await items
      .locator('.badge')
      .filter({ hasNotText: /active today/ })
      .allTextContents();
    expect(new Set(types)).toEqual(new Set(['release']));
    expect(await items.count()).toBeLessThan(all);
    await views.check(frame, 'events');
  });

  it('add_context_event: the recorded event, highlighted in the timeline around it', async () => {
    // A day of the demo's own timeline (generated relative to its today), so there are neighbours.
    const demoEvents = (await api(`${service.url}/api/context/events?project_id=${P}&limit=1`)).body.events;
    const { frame } = await views.render('add_context_event', {
      project_id: P,
      event_type: 'pricing_change',
      title: 'Tent prices up 5 %',
      event_date: demoEvents[0].event_date,
    });
    await frame
      .getByRole('status')
      .getByText(/Recorded “Tent prices up 5 %”/)
      .waitFor();
    await frame.getByText('just recorded').waitFor();
    await until('the timeline', async () => (await frame.locator('ol.timeline > li').count()) > 1);
    await views.check(frame, 'events-added');
  });

  it('list_datastreams: the list; Run now follows the run until it settles', async () => {
    const { frame } = await views.render('list_datastreams', { project_id: P });
    await frame.getByRole('heading', { name: 'Datastreams' }).waitFor();
    await frame.getByRole('cell', { name: /^Demo ad platform/ }).waitFor();
    await frame.getByRole('button', { name: 'Run Demo ad platform now' }).click();
    const panel = frame.getByRole('region', { name: /^Run / });
    await panel.waitFor();
    await panel.locator('.badge', { hasText: 'succeeded' }).waitFor({ timeout: 120_000 });
    expect(await panel.locator('progress').count()).toBe(0);
    await views.check(frame, 'datastreams');
  });

  it('run_datastream without waiting: the view polls get_run_status until the run settles', async () => {
    const { frame } = await views.render('run_datastream', {
      project_id: P,
      datastream: 'Demo ad platform',
      wait: false,
    });
    await frame.getByRole('heading', { name: 'Datastream run' }).waitFor();
    const panel = frame.getByRole('region', { name: /^Run / });
    await panel.locator('.badge', { hasText: 'succeeded' }).waitFor({ timeout: 120_000 });
    await views.check(frame, 'datastream-run');
  });

  it('get_exchange_rates: the rates table with a filter', async () => {
    const { frame } = await views.render('get_exchange_rates', { base: 'USD', date: '2026-04-13' });
    await frame.getByRole('heading', { name: /Exchange rates · 1 USD/ }).waitFor();
    expect(await frame.locator('table tbody tr').count()).toBeGreaterThan(20);
    await frame.getByRole('row', { name: /GBP/ }).waitFor();
    await frame.getByLabel('Find a currency').fill('yen');
    await frame.getByRole('row', { name: /JPY/ }).waitFor();
    expect(await frame.locator('table tbody tr').count()).toBe(1);
    await views.check(frame, 'rates');
  });

  it('list_projects: a table of the projects', async () => {
    const { frame } = await views.render('list_projects', {});
    await frame.getByRole('heading', { name: 'Projects' }).waitFor();
    await frame.getByRole('rowheader', { name: 'Demo: Northwind Outdoor marketing' }).waitFor();
    await frame.getByRole('cell', { name: 'proj_elsewhere' }).waitFor();
    await views.check(frame, 'projects');
  });

  it('add_skill and add_knowledge: the views open the version just saved', async () => {
    const skill = await views.render('add_skill', {
      project_id: P,
      name: 'check-tent-prices',
      description: 'Checks tent prices against the competition.',
      body_md: '## Steps\n\n1. **Open the price sheet** and read it.\n2. **Compare** with [[kpi.roas]].\n',
    });
    await skill.frame.getByText('Saved skill check-tent-prices as version 1.').waitFor();
    await skill.frame.getByRole('heading', { level: 1, name: 'check-tent-prices' }).waitFor();
    await skill.frame.locator('summary', { hasText: 'Open the price sheet' }).waitFor();
    await views.check(skill.frame, 'procedure-added');
    const sheet = await views.render('add_knowledge', {
      project_id: P,
      title: 'Tent price policy',
      body_md: '# Tent price policy\n\nPrices follow **the market**.',
    });
    await sheet.frame.getByText(/Saved knowledge tent-price-policy as version 1/).waitFor();
    await sheet.frame.locator('article .markdown strong', { hasText: 'the market' }).waitFor();
    await views.check(sheet.frame, 'knowledge-added');
  });
});

import { describe, expect, it } from 'vitest';
import { chartBadgesClear } from '../support/browser.js';
import { tallestRowInLines } from '../support/table-layout.js';
import { consoleSuite } from '../support/console.js';
import { api } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';
const SECRET = 'console-secret-value-never-shown';

describe.each(STORES)('console: connections, datastreams, events, anomalies, organization [%s]', (store) => {
  const suite = consoleSuite(store, { env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });

  it('create connections (secrets write-only) and verify one, with the result shown', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/connections`);
    await suite.ui.loaded();
    await page.getByRole('button', { name: 'New connection' }).click();
    let form = page.getByRole('form', { name: 'New connection' });
    // The providers come from the catalogue, the four source providers among them.
    await form
      .getByLabel('Provider')
      .locator('option', { hasText: /^meta_ads$/ })
      .waitFor({ state: 'attached' });
    const offered = await form.getByLabel('Provider').locator('option').allTextContents();
    expect(offered).toEqual(expect.arrayContaining(['duckdb', 'bigquery', 'google_ads', 'meta_ads']));
    await form.getByLabel('Provider').selectOption('google_ads');
    await form.getByLabel('Expected fields').getByText('customer_id').first().waitFor();
    expect(await form.getByLabel('Secret 1 name').inputValue()).toBe('developer_token');
    await form.getByLabel('Provider').selectOption('csv');
    await form.getByLabel('Connection id').fill('console-api');
    await form.getByLabel('Configuration (JSON)').fill(
      JSON.stringify({
        url: 'http://127.0.0.1:9/spend.csv',
        mapping: { date: 'day', campaign_id: 'campaign', spend: 'cost' },
        defaults: { channel: 'web', currency: 'USD' },
      }),
    );
    // A refused secret name shows the service's message next to the form.
    await form.getByLabel('Secret 1 name').fill('password');
    await form.getByLabel('Secret 1 value').fill(SECRET);
    suite.ui.allowedStatuses.add(400);
    await form.getByRole('button', { name: 'Create connection' }).click();
    await form.getByRole('alert').first().waitFor();
    await form.getByLabel('Secret 1 name').fill('bearer_token');
    await form.getByRole('button', { name: 'Create connection' }).click();
    const card = page.getByRole('listitem', { name: 'Connection console-api' });
    await card.getByText('stored (write-only)').waitFor();
    await card.getByRole('button', { name: 'Verify' }).click();
    const result = card.getByRole('status', { name: 'Verification result' });
    await result.waitFor();
    // Nothing listens on port 9: a check fails and says why.
    await result.getByText('fail').first().waitFor();
    expect(await page.content()).not.toContain(SECRET);

    // Rotating: new secret values are sent, never shown, and the connection says when.
    const connection = async () =>
      (await api(`${suite.service.url}/api/credentials/list?project_id=${P}&limit=200`)).body.connections.find(
        (c: { connection_ref_id: string }) => c.connection_ref_id === 'console-api',
      ) as { secrets_rotated_at: string | null };
    const before = (await connection()).secrets_rotated_at;
    await card.getByRole('button', { name: 'Rotate secrets' }).click();
    const rotate = page.getByRole('form', { name: 'Rotate console-api' });
    await rotate.getByLabel('Secret 1 name').fill('bearer_token');
    await rotate.getByLabel('Secret 1 value').fill(`${SECRET}-rotated`);
    await rotate.getByRole('button', { name: 'Rotate', exact: true }).click();
    await rotate.waitFor({ state: 'detached' });
    const after = (await connection()).secrets_rotated_at;
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
    expect(await page.content()).not.toContain(SECRET);
    // A demo connection (no secrets) for the datastream below.
    await page.getByRole('button', { name: 'New connection' }).click();
    form = page.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Connection id').fill('console-demo');
    await form.getByLabel('Configuration (JSON)').fill('{"seed": 7, "campaigns": 3}');
    await form.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('listitem', { name: 'Connection console-demo' }).waitFor();
    await suite.ui.check('connections');
  });

  it('create a datastream, run it now and watch it succeed; the run is in the history', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/datastreams`);
    await suite.ui.loaded();
    await page.getByRole('button', { name: 'New datastream' }).click();
    const form = page.getByRole('form', { name: 'New datastream' });
    await form.getByLabel('Name').fill('Console stream');
    await form.getByLabel('Connection').selectOption('console-demo');
    await form.getByLabel('Cadence').fill('manual');
    await form.getByLabel('Lookback (days)').fill('5');
    await form.getByRole('button', { name: 'Create datastream' }).click();
    const card = page.getByRole('listitem', { name: 'Datastream Console stream' });
    await card.waitFor();
    await suite.ui.check('datastreams');
    await card.getByRole('button', { name: 'Run now' }).click();
    const status = card.getByRole('status');
    await status.getByText('succeeded').waitFor({ timeout: 60_000 });
    expect(await status.textContent()).toMatch(/\d+ rows read, \d+ written/);
    // The schedule changes in place (the API upserts by name).
    await card.getByRole('button', { name: 'Edit schedule' }).click();
    const schedule = page.getByRole('form', { name: 'Schedule of Console stream' });
    await schedule.getByLabel('Cadence').fill('weekly');
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await card.getByText('weekly').waitFor();
    await card.getByRole('link', { name: 'Run history' }).click();
    await page.locator('table[data-loaded="true"]').waitFor();
    await page.getByRole('cell', { name: 'succeeded' }).first().waitFor();
    await suite.ui.check('runs');
  });

  it('register an event and see it on the anomaly chart', async () => {
    const { page } = suite.ui;
    const fired = await api(`${suite.service.url}/api/anomalies?project_id=${P}&limit=1`);
    const a = fired.body.anomalies[0];
    await suite.ui.open(`${P}/events`);
    await suite.ui.loaded();
    await page.getByRole('button', { name: 'New event' }).click();
    const form = page.getByRole('form', { name: 'New event' });
    await form.getByLabel('Title').fill('Console flash sale');
    await form.getByLabel('Type').fill('promotion');
    await form.getByLabel('Date', { exact: true }).fill(a.date);
    await form.getByRole('button', { name: 'Create event' }).click();
    await page.getByRole('list', { name: 'Context events' }).getByText('Console flash sale').waitFor();
    await suite.ui.check('events');
    await suite.ui.open(`${P}/anomalies?date=${a.date}&metric=${a.metric}&channel=${encodeURIComponent(a.channel)}`);
    const chart = page.getByRole('region', { name: 'Selected anomaly' });
    await chart.locator('canvas').waitFor();
    await chart.getByRole('list', { name: 'Events marked on the chart' }).getByText('Console flash sale').waitFor();
    await suite.ui.check('anomalies');
    // The chart numbers its events above the plot and names them below; at 390 px and 1280 px no
    // badge overlaps another or leaves the plot (screenshots looked at: anomalies-chart-*.png).
    const marked = chart.getByRole('list', { name: 'Events marked on the chart' });
    await marked.getByText('Console flash sale').waitFor();
    const plotted = chart.locator('[data-badges]');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expect
        .poll(() => plotted.evaluate((el: HTMLElement) => JSON.parse(el.dataset.plot ?? '[0,0]')[1]))
        .toBeLessThan(width);
      await expect
        .poll(() => plotted.evaluate((el: HTMLElement) => Math.round(el.getBoundingClientRect().width)))
        .toBeGreaterThan(width / 2);
      expect(await chartBadgesClear(plotted)).toBe(await marked.getByRole('listitem').count());
      // The list below scrolls sideways rather than squeezing the events' titles to a word per line
      // (14 lines before); a day with three events still takes a few.
      const list = page.getByRole('table', { name: 'Fired anomalies' });
      expect(await tallestRowInLines(list), `${width} px: the tallest row, in lines`).toBeLessThanOrEqual(6);
      await suite.ui.check(`anomalies-chart-${width}`);
    }
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('form', { name: 'Anomaly settings' }).waitFor();
    // The default seasonality is shown as chosen (a select without its option showed nothing).
    const seasonality = page.getByLabel('Seasonality');
    expect(await seasonality.inputValue()).toBe('auto');
    expect(await seasonality.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toContain('auto');
    await suite.ui.check('anomaly-settings');

    // Saving the form keeps what only the API sets. PUT replaces the settings whole; the form used
    // to send its four fields alone, which dropped per-metric overrides and the like.
    const url = `${suite.service.url}/api/anomalies/settings?project_id=${P}`;
    const before = (await api(url)).body.settings;
    const fromApi = {
      sustained_days: 3,
      expected_event_types: ['holiday', 'release'],
      metrics: { roas: { min_volume: 25 } },
    };
    expect((await api(url, { method: 'PUT', json: { ...before, ...fromApi } })).status).toBe(200);
    await suite.ui.open(`${P}/anomalies`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const settingsForm = page.getByRole('form', { name: 'Anomaly settings' });
    await settingsForm.getByLabel('Threshold (σ)').fill('4.2');
    await settingsForm.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => (await api(url)).body.settings.threshold).toBe(4.2);
    const saved = (await api(url)).body.settings;
    expect(saved).toMatchObject(fromApi);
    // A field the form shows but nobody changed stays unset: it follows the default.
    expect(saved.seasonality).toBe(before.seasonality);
    expect((await api(url, { method: 'PUT', json: before })).status).toBe(200);
  });

  it('insights by day and the data-quality ledger', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/insights`);
    await page.locator('article[data-loaded="true"]').waitFor();
    await suite.ui.check('insights');
    await suite.ui.open(`${P}/data-quality`);
    await suite.ui.loaded();
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
    await suite.ui.check('data-quality');
    // At a phone's width the ledger scrolls sideways: it becomes a named region the keyboard can
    // reach (axe's scrollable-region-focusable, which the check runs).
    await page.setViewportSize({ width: 390, height: 900 });
    const ledger = page.locator('.table-wrap').first();
    await expect.poll(() => ledger.getAttribute('tabindex')).toBe('0');
    expect(await ledger.getAttribute('aria-label')).toBeTruthy();
    // Its instants stay on one line (they were broken over four) and its messages keep a readable width.
    const table = page.getByRole('table', { name: 'Data-quality ledger' });
    const layout = await table.evaluate((el) => ({
      instantLines: [...el.querySelectorAll('time')].map(
        (t) => new Set([...t.getClientRects()].map((r) => Math.round(r.top))).size,
      ),
      messageWidth: Math.min(...[...el.querySelectorAll('tbody td:last-child')].map((td) => td.clientWidth)),
      ch: Number.parseFloat(getComputedStyle(el).fontSize) * 0.5,
    }));
    expect(new Set(layout.instantLines)).toEqual(new Set([1]));
    expect(layout.messageWidth).toBeGreaterThan(20 * layout.ch);
    await suite.ui.check('data-quality-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    // Where it fits it is no tab stop.
    await expect.poll(() => ledger.getAttribute('tabindex')).toBeNull();
  });

  it('organization: add a member and a grant; settings and the audit log', async () => {
    const { page } = suite.ui;
    await suite.ui.open('org/members');
    await suite.ui.loaded();
    await page.getByRole('button', { name: 'Add member' }).click();
    const form = page.getByRole('form', { name: 'Add member' });
    await form.getByLabel('Subject').fill('analyst-7');
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Add member' }).click();
    const card = page.getByRole('listitem', { name: 'Member analyst-7' });
    await card.getByLabel('Project id').fill(P);
    await card.getByLabel('Grant role').selectOption('editor');
    await card.getByRole('button', { name: 'Add grant' }).click();
    await card.getByRole('button', { name: 'Save grants' }).click();
    await expect
      .poll(async () => (await api(`${suite.service.url}/api/org/members/analyst-7/grants`)).body.grants)
      .toEqual([{ project_id: P, role: 'editor' }]);
    await suite.ui.check('members');
    await suite.ui.open('org/audit');
    await page.locator('table[data-loaded="true"]').waitFor();
    await page.getByRole('cell', { name: 'analyst-7' }).first().waitFor();
    await suite.ui.check('audit');
    await suite.ui.open('org/settings');
    await suite.ui.loaded();
    await suite.ui.check('org-settings');
  });
});

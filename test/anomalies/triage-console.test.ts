import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { launchBrowser } from '../support/browser.js';
import { ConsoleDriver } from '../support/console.js';
import { createProject } from '../support/flows.js';
import { days, writeKpis } from '../support/kpis.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_triage_console';
const DATES = days('2026-04-10', 37);
const spendOf = (i: number) => (i === 30 ? 400 : 100 + (((i * 37) % 11) - 5));
/** A second channel with its own spike the day before: the total's moves are explained by A and B. */
const spendOfB = (i: number) => (i === 29 ? 400 : 100 + (((i * 53) % 7) - 3));

describe.each(STORES)('console: triage on the anomaly page [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let ui: ConsoleDriver;
  let eventId: string;
  const clock = new ManualClock('2026-05-18T12:00:00Z');

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P, 'USD', 'UTC');
    // The robust rule at |z| 3, which this page's figures were worked out on (not the defaults).
    const put = await api(`${service.url}/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: { baseline: 'robust', exclude_anomalies: true, threshold: 3 },
    });
    expect(put.status).toBe(200);
    await writeKpis(
      service,
      P,
      DATES.flatMap((date, i) => [
        { date, channel: 'A', spend: spendOf(i), revenue: 300 },
        { date, channel: 'B', spend: spendOfB(i), revenue: 300 },
      ]),
    );
    expect((await api(`${service.url}/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' })).status).toBe(200);
    const ev = await api(`${service.url}/api/context/events`, {
      method: 'POST',
      json: { project_id: P, event_type: 'promotion', title: 'Spring sale', event_date: DATES[30] },
    });
    eventId = ev.body.id;
    browser = await launchBrowser();
    ui = new ConsoleDriver(browser, service.url, store);
    await ui.start();
  });
  afterAll(async () => {
    await ui?.close();
    await browser?.close();
    await service?.close();
  });

  it('shows the status, refuses a stranger assignee next to its field, saves a triage', async () => {
    const first = (await api(`${service.url}/api/anomalies?project_id=${P}&since=2026-04-10`)).body.anomalies[0];
    const page = await ui.open(`${P}/anomalies`);
    const form = page.getByRole('form', { name: 'Triage' });
    await form.getByText('nobody triaged it yet').waitFor();
    const status = form.getByLabel('Status');
    expect(await status.locator('option').allTextContents()).toEqual([
      'open',
      'acknowledged',
      'resolved',
      'expected (left out of later baselines)',
      'false positive (counted as normal)',
    ]);
    await status.selectOption('acknowledged');
    await form.getByLabel('Assignee (a member)').fill('nobody-9');
    ui.allowedStatuses.add(400);
    await form.getByRole('button', { name: 'Save triage' }).click();
    await form.getByText('nobody-9 is not a member of the organization').first().waitFor();
    expect(await form.getByLabel('Assignee (a member)').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Assignee (a member)').fill('');
    await form.getByLabel('Context event').selectOption(eventId);
    await form.getByLabel('Note').fill('The spring sale, announced late');
    await form.getByRole('button', { name: 'Save triage' }).click();
    await form.getByText(/Status: acknowledged \(since /).waitFor();
    const saved = await api(`${service.url}/api/anomalies/${first.id}/triage`);
    expect(saved.body).toMatchObject({
      status: 'acknowledged',
      note: 'The spring sale, announced late',
      assignee: null,
      context_event_id: eventId,
    });
    // From acknowledged the select offers the allowed moves only.
    expect(await form.getByLabel('Status').locator('option').allTextContents()).toEqual([
      'acknowledged',
      'open',
      'resolved',
      'expected (left out of later baselines)',
      'false positive (counted as normal)',
    ]);
    await ui.check('anomaly-triage-1280');
    await page.setViewportSize({ width: 390, height: 900 });
    await ui.check('anomaly-triage-390');
  });

  it('shows the precision table, replays candidate settings and lets an admin apply one', async () => {
    const list = (await api(`${service.url}/api/anomalies?project_id=${P}&since=2026-04-10&metric=spend`)).body
      .anomalies;
    const other = list.find((a: { channel: string }) => a.channel === 'B');
    expect(
      (await api(`${service.url}/api/anomalies/${other.id}`, { method: 'PATCH', json: { status: 'false_positive' } }))
        .status,
    ).toBe(200);
    const page = await ui.open(`${P}/anomalies`);
    await page.getByRole('tab', { name: 'Precision' }).click();
    const table = page.getByRole('table', { name: 'Precision per metric and channel' });
    await table.locator('tbody tr').first().waitFor();
    const cells = async (name: string) =>
      table
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name, exact: true }) })
        .getByRole('cell')
        .allTextContents();
    expect(await cells('Spend · A')).toEqual(['Spend · A', '1', '1', '0', '1', '100 %']);
    expect(await cells('Spend · B')).toEqual(['Spend · B', '1', '1', '1', '0', '0 %']);
    await page.getByRole('button', { name: 'Suggest settings' }).click();
    const suggested = page.getByRole('table', { name: 'Candidate settings replayed over the period' });
    await suggested.locator('tbody tr').first().waitFor();
    // Every threshold the replay tries still fires the spike; the false positive is the same spike.
    const row = suggested.getByRole('row').filter({ has: page.getByRole('cell', { name: 'threshold 3.5 σ' }) });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'threshold 3.5 σ',
      expect.any(String),
      '0',
      '1 of 1',
      'Apply',
    ]);
    await ui.check('anomaly-precision-1280');
    await row.getByRole('button', { name: 'Apply threshold 3.5 σ' }).click();
    await page.getByRole('status').filter({ hasText: 'Applied: threshold 3.5 σ' }).waitFor();
    const settings = await api(`${service.url}/api/anomalies/settings?project_id=${P}`);
    expect(settings.body.effective.threshold).toBe(3.5);
    await page.setViewportSize({ width: 390, height: 900 });
    await ui.check('anomaly-precision-390');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, serveStatic, shoot } from '../support/browser.js';
import { consoleSuite } from '../support/console.js';
import { awaitRun, type Run } from '../support/flows.js';
import { api } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { ViewHarness } from '../support/view-harness.js';

const P = 'proj_demo';

/** Polls (bounded) until `probe` answers something truthy. */
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 600; i += 1) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen`);
}

describe.each(STORES)('the explanation in the widget and the console [%s]', (store) => {
  const suite = consoleSuite(store);
  let ratio: { id: string; date: string; metric: string; channel: string };
  let channel: { id: string; date: string; metric: string; channel: string };

  beforeAll(async () => {
    const runs = (await api(`${suite.service.url}/api/flows/runs?project_id=${P}`)).body.runs as Run[];
    for (const run of runs) expect((await awaitRun(suite.service, P, run.id)).status).toBe('succeeded');
    // The panel shows the runs' data-quality checks, written by the after-run job: wait for them.
    await until('the data-quality checks', async () => {
      const dq = await api(`${suite.service.url}/api/dq/status?project_id=${P}`);
      return dq.body.ledger?.length >= 6;
    });
    const all = await until('fired anomalies', async () => {
      const res = await api(`${suite.service.url}/api/anomalies?project_id=${P}&since=2000-01-01&limit=500`);
      return res.body.anomalies?.length ? (res.body.anomalies as (typeof ratio)[]) : null;
    });
    // A ratio KPI on the total (channels, rate and mix) and an additive one on a channel (campaigns).
    ratio = all.find((a) => a.channel === '_total' && ['roas', 'cpa', 'cvr', 'ctr'].includes(a.metric)) ?? all[0]!;
    channel = all.find((a) => a.channel !== '_total' && ['spend', 'revenue'].includes(a.metric)) ?? all[0]!;
  }, 300_000);

  it('console: the anomaly page shows why it moved, under the chart, without the duplicate events list', async () => {
    const { page } = suite.ui;
    const referencedKeys: string[] = [];
    for (const a of [ratio, channel]) {
      await suite.ui.open(`${P}/anomalies?date=${a.date}&metric=${a.metric}&channel=${encodeURIComponent(a.channel)}`);
      const panel = page.getByRole('region', { name: 'Explanation' });
      await panel.getByRole('heading', { name: 'Why it moved' }).waitFor();
      const expected = (await api(`${suite.service.url}/api/anomalies/${a.id}/explain`)).body;
      const breakdown = a.channel === '_total' ? 'channel' : 'campaign';
      const table = panel.getByRole('region', { name: `Contribution of each ${breakdown}` });
      const rows = table.locator('tbody tr');
      expect(await rows.count()).toBe(Math.min(8, expected.decomposition.parts.length));
      expect(await rows.first().locator('th').textContent()).toBe(expected.decomposition.parts[0].label);
      if (expected.decomposition.method === 'rate_mix') {
        await table.getByRole('columnheader', { name: 'Rate' }).waitFor();
        await table.getByRole('columnheader', { name: 'Mix' }).waitFor();
      }
      await panel.getByRole('heading', { name: 'Data quality' }).waitFor();
      await panel.getByText(expected.data_quality.verdict.replace('_', ' '), { exact: true }).waitFor();
      for (const s of expected.skills.matches) await panel.getByText(s.name, { exact: true }).waitFor();
      // A description's [[key]] references read as the key, linked to the taxonomy, never as brackets.
      const keys = expected.skills.matches.flatMap((s: { description: string }) =>
        [...s.description.matchAll(/\[\[([^\]]+)\]\]/g)].map((m) => m[1]!),
      );
      if (expected.skills.matches.length) {
        const skills = panel.getByRole('list', { name: /^Skills on / });
        expect(await skills.textContent()).not.toContain('[[');
        for (const key of keys)
          expect(await skills.getByRole('link', { name: key, exact: true }).first().getAttribute('href')).toContain(
            `/taxonomy?key=${key}`,
          );
      }
      referencedKeys.push(...keys);
      // The chart names its own events (numbered badges); the page no longer repeats them.
      expect(await page.getByRole('list', { name: 'Events on the chart' }).count()).toBe(0);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await suite.ui.check(`anomaly-explain-${a.metric}-${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    // The demo's Skills reference keys in their descriptions, so the check above had something to see.
    expect(referencedKeys.length).toBeGreaterThan(0);
  });

  it('widget: explain_anomaly renders the explanation; the anomalies view opens it from an anomaly', async () => {
    const host = await serveStatic('test-host');
    const views = new ViewHarness(suite.ui.page.context().browser()!, host.url, suite.service.url, store);
    try {
      const { frame } = await views.render('explain_anomaly', { project_id: P, anomaly_id: ratio.id });
      const section = frame.getByRole('region', { name: 'Why it moved' });
      await section.getByRole('heading', { name: 'Why it moved' }).waitFor();
      expect(await section.locator('tbody tr').count()).toBeGreaterThan(0);
      // Skills' descriptions show their [[key]] references as the key (no link out of the view).
      const skills = section.getByRole('list', { name: /^Skills on / });
      if (await skills.count()) expect(await skills.textContent()).not.toContain('[[');
      for (const width of [390, 1280]) {
        await views.page.setViewportSize({ width: width + 60, height: 900 });
        await views.page.locator('#frame-box').evaluate((el, w) => {
          (el as HTMLElement).style.maxWidth = `${w}px`;
        }, width);
        await shoot(views.page, frame, artifactPath('widgets', store, `anomaly-explain-${width}.png`));
      }
      await views.page.locator('#frame-box').evaluate((el) => {
        (el as HTMLElement).style.maxWidth = '';
      });
      await views.page.setViewportSize({ width: 820, height: 900 });
      await views.check(frame, 'anomaly-explain');
      await views.page.close();

      const list = await views.render('get_anomalies', { project_id: P, since: '2000-01-01' });
      const selected = list.frame.getByRole('region', { name: 'Selected anomaly' });
      const open = selected.getByRole('button', { name: /^(Why did it move\?|Hide the explanation)$/ });
      expect(await open.getAttribute('aria-expanded')).toBe('false');
      await open.click();
      expect(await open.getAttribute('aria-expanded')).toBe('true');
      expect(await open.textContent()).toBe('Hide the explanation');
      await selected.getByRole('region', { name: 'Why it moved' }).locator('tbody tr').first().waitFor();
      await views.check(list.frame, 'anomalies-explained');
      await views.page.close();
    } finally {
      await host.close();
    }
  });
});

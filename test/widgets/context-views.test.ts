import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, serveStatic } from '../support/browser.js';
import { ViewHarness } from '../support/view-harness.js';
import { startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';

describe.each(STORES)('context views in a real browser [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let hostSite: Awaited<ReturnType<typeof serveStatic>>;
  let views: ViewHarness;

  beforeAll(async () => {
    service = await startService(store, { demo: true });
    hostSite = await serveStatic('test-host');
    browser = await launchBrowser();
    views = new ViewHarness(browser, hostSite.url, service.url, store);
  });
  afterAll(async () => {
    await browser?.close();
    await hostSite?.close();
    await service?.close();
  });

  it('search_context: hits by tier; opening a hit shows the object in place', async () => {
    const { frame, run } = await views.render('search_context', { query: 'roas', project_id: P });
    expect(run.resourceUri).toBe('ui://context-hub/search.html');
    await frame.getByRole('heading', { name: /Search: .*roas/ }).waitFor();
    await frame.getByRole('heading', { name: /Title matches/ }).waitFor();
    const firstHit = frame.locator('li.card button.link').first();
    const title = await firstHit.textContent();
    expect(title?.length).toBeGreaterThan(0);
    await firstHit.click();
    await frame.getByRole('button', { name: /Back to \d+ hits/ }).waitFor();
    await frame.getByRole('heading', { level: 1, name: title! }).waitFor();
    await frame.getByRole('button', { name: /Back to/ }).click();
    await frame.getByRole('heading', { name: /Title matches/ }).waitFor();
    await views.check(frame, 'search');
  });

  it('get_procedure: steps expand, acceptance is a checklist, keys open, versions switch', async () => {
    const name = 'investigate-roas-drop';
    // A second version over REST, so the picker has an earlier one to switch to.
    const v1 = await fetch(`${service.url}/api/skills/${name}?project_id=${P}`).then((r) => r.json());
    const added = await fetch(`${service.url}/api/skills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        project_id: P,
        name,
        description: v1.description,
        body_md: v1.body_md.replace('## Acceptance', '9. **Tell the channel owner** what you found.\n\n## Acceptance'),
      }),
    });
    expect(added.status).toBeLessThan(300);
    const { frame } = await views.render('get_procedure', { name, project_id: P });
    await frame.getByRole('heading', { level: 1, name }).waitFor();
    await frame.getByText('Tell the channel owner').first().waitFor();
    await frame.getByRole('heading', { name: 'Steps' }).waitFor();
    const step = frame.locator('details').first();
    await step.locator('summary').click();
    expect(await step.getAttribute('open')).not.toBeNull();
    const box = frame.getByRole('checkbox').first();
    await box.check();
    expect(await box.isChecked()).toBe(true);
    const chip = frame.locator('button.chip').first();
    if ((await chip.count()) > 0) {
      const key = (await chip.textContent())!;
      await chip.click();
      await frame
        .getByRole('region', { name: 'Opened business key' })
        .getByText(key, { exact: false })
        .first()
        .waitFor();
    }
    const picker = frame.getByLabel('Version');
    await picker.selectOption('1');
    await frame.getByText('Tell the channel owner').first().waitFor({ state: 'detached' });
    expect(await frame.locator('details').count()).toBe(8);
    await views.check(frame, 'procedure');
  });

  it('get_knowledge: the body is rendered Markdown, with owner and version', async () => {
    const { frame } = await views.render('get_knowledge', { topic_id: 'roas-definition', project_id: P });
    await frame.locator('article .markdown').waitFor();
    expect(await frame.locator('article .markdown script').count()).toBe(0);
    await frame.getByText(/v1 of 1/).waitFor();
    await views.check(frame, 'knowledge');
  });

  it('get_business_key: label, parent and children, the sheets that explain it', async () => {
    const { frame } = await views.render('get_business_key', { key: 'kpi.roas', project_id: P });
    await frame.getByRole('heading', { name: 'Explained by' }).waitFor();
    await frame.getByText('kpi.roas', { exact: true }).first().waitFor();
    const sheet = frame.locator('button.link').first();
    if ((await sheet.count()) > 0) {
      await sheet.click();
      await frame.getByRole('button', { name: /Back to kpi.roas/ }).waitFor();
    }
    await views.check(frame, 'business-key');
  });

  it('add_skill under review: the view says the change waits for review and opens no version', async () => {
    const patch = (mode: string) =>
      fetch(`${service.url}/api/projects/${P}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent_writes: mode }),
      });
    expect((await patch('review')).status).toBe(200);
    try {
      const { frame } = await views.render('add_skill', {
        project_id: P,
        name: 'proposed-in-view',
        description: 'Waits for review',
        body_md: '## Steps\n1. One\n',
      });
      await frame
        .getByRole('status')
        .getByText(/Not published yet: .*proposal prop_[a-f0-9]{16}/)
        .waitFor();
      expect(await frame.getByText('Opening it').count()).toBe(0);
      await views.check(frame, 'procedure-pending');
    } finally {
      await patch('publish');
    }
  });
});

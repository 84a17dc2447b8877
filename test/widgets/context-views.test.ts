import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, launchBrowser, seriousViolations, serveStatic, shoot, watchErrors } from '../support/browser.js';
import { startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';

describe.each(STORES)('context views in a real browser [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let hostSite: Awaited<ReturnType<typeof serveStatic>>;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    service = await startService(store);
    await service.app.services.demo.run(service.app.systemContext());
    hostSite = await serveStatic('test-host');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await hostSite?.close();
    await service?.close();
  });

  /** Loads the test host, renders `tool`'s view with a real call and returns the view's frame. */
  async function render(tool: string, args: Record<string, unknown>, theme: 'light' | 'dark' = 'light') {
    page = await browser.newPage({ viewport: { width: 820, height: 900 } });
    errors = watchErrors(page);
    await page.goto(hostSite.url);
    const run = await page.evaluate((o) => window.contextHubHost.run(o), {
      mcp: `${service.url}/mcp`,
      tool,
      args,
      theme,
    });
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (!frame) throw new Error('the host embedded no view');
    return { frame, run };
  }

  /** The view's content height and the height the host gave its iframe after the view reported it. */
  async function heights(frame: Frame) {
    const content = await frame.evaluate(() => {
      const html = document.documentElement;
      const before = html.style.height;
      html.style.height = 'max-content';
      const h = Math.ceil(html.getBoundingClientRect().height);
      html.style.height = before;
      return h;
    });
    const iframe = await page.locator('iframe').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
    return { content, iframe };
  }

  async function check(frame: Frame, name: string) {
    // The view reports its size through the host; the host sized the iframe to all of it.
    await expect
      .poll(async () => {
        const h = await heights(frame);
        return Math.abs(h.content - h.iframe) <= 1;
      })
      .toBe(true);
    expect(await seriousViolations(frame)).toEqual([]);
    await shoot(page, frame, artifactPath('widgets', store, `${name}-light.png`));
    await page.evaluate(() => window.contextHubHost.setTheme('dark'));
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await seriousViolations(frame)).toEqual([]);
    await shoot(page, frame, artifactPath('widgets', store, `${name}-dark.png`));
    expect(errors).toEqual([]);
    await page.close();
  }

  it('search_context: hits by tier; opening a hit shows the object in place', async () => {
    const { frame, run } = await render('search_context', { query: 'roas', project_id: P });
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
    await check(frame, 'search');
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
    const { frame } = await render('get_procedure', { name, project_id: P });
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
    await check(frame, 'procedure');
  });

  it('get_knowledge: the body is rendered Markdown, with owner and version', async () => {
    const { frame } = await render('get_knowledge', { topic_id: 'roas-definition', project_id: P });
    await frame.locator('article .markdown').waitFor();
    expect(await frame.locator('article .markdown script').count()).toBe(0);
    await frame.getByText(/v1 of 1/).waitFor();
    await check(frame, 'knowledge');
  });

  it('get_business_key: label, parent and children, the sheets that explain it', async () => {
    const { frame } = await render('get_business_key', { key: 'kpi.roas', project_id: P });
    await frame.getByRole('heading', { name: 'Explained by' }).waitFor();
    await frame.getByText('kpi.roas', { exact: true }).first().waitFor();
    const sheet = frame.locator('button.link').first();
    if ((await sheet.count()) > 0) {
      await sheet.click();
      await frame.getByRole('button', { name: /Back to kpi.roas/ }).waitFor();
    }
    await check(frame, 'business-key');
  });
});

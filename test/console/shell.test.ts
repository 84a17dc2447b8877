import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { ConsoleDriver } from '../support/console.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';

describe.each(STORES)('console shell, overview and navigation [%s]', (store) => {
  let service: RunningService;
  let browser: Browser;
  let ui: ConsoleDriver;

  beforeAll(async () => {
    service = await startService(store, { demo: true });
    browser = await launchBrowser();
    ui = new ConsoleDriver(browser, service.url, store);
  });
  afterAll(async () => {
    await ui?.close();
    await browser?.close();
    await service?.close();
  });

  it('every /console/* path answers with the app shell and strict security headers', async () => {
    const redirect = await fetch(`${service.url}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/console/');
    for (const path of ['/console/', `/console/${P}/skills/investigate-roas-drop`, '/console/org/members']) {
      const res = await fetch(`${service.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const html = await res.text();
      expect(html).toContain('<div id="app">');
      // No inline script: every script element has a src on the service itself.
      for (const tag of html.match(/<script[^>]*>/g) ?? []) expect(tag).toMatch(/src="\/console\/assets\//);
    }
    const shell = await (await fetch(`${service.url}/console/`)).text();
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(shell)![1]!;
    const js = await fetch(`${service.url}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    const missing = await fetch(`${service.url}/console/assets/nope-123.js`);
    expect(missing.status).toBe(404);
  });

  it('GET /api/console/config tells the console how to sign in (public)', async () => {
    const config = await api(`${service.url}/api/console/config`);
    expect(config.status).toBe(200);
    expect(config.body).toEqual({ auth_mode: 'disabled', oauth: null });
  });

  it("the overview shows today's insight, anomalies and datastream health; sections navigate", async () => {
    // An agent's write under the review policy waits as a proposal: pending work on the overview.
    const policy = await api(`${service.url}/api/projects/${P}`, { method: 'PATCH', json: { agent_writes: 'review' } });
    expect(policy.status).toBe(200);
    const agent = await connectModern(service.url);
    await agent.callTool({
      name: 'add_skill',
      arguments: {
        project_id: P,
        name: 'agent-proposed',
        description: 'From an agent.',
        body_md: '## Steps\n\n1. Do it.\n',
      },
    });
    await agent.close();
    // The demo run's insight is composed by after-run work (a job, polled every 2 s on pg-boss): the
    // overview reads it once, so open it when the insight exists, not when the run was started.
    while ((await api(`${service.url}/api/insights?project_id=${P}&limit=1`)).body.insights.length === 0)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const page = await ui.start();
    await ui.open(`${P}/overview`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.locator('[data-loaded="true"]').waitFor();
    expect(await page.locator('.kpi').count()).toBeGreaterThan(3);
    await page.getByRole('heading', { name: 'Latest anomalies' }).waitFor();
    await page.getByRole('heading', { name: 'Pending work' }).waitFor();
    await page.getByText("Skill agent-proposed: an agent's proposed change waits for review").waitFor();
    // Each pending proposal links to its review page.
    expect(await page.getByRole('link', { name: 'Skill agent-proposed' }).getAttribute('href')).toMatch(
      /\/console\/proj_demo\/proposals\/prop_/,
    );
    await page.getByRole('cell', { name: 'Demo ad platform' }).waitFor();
    await ui.check('overview-light');
    // Dark theme through the toggle.
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await ui.check('overview-dark');
    await page.getByRole('button', { name: 'Light theme' }).click();
    // Client-side navigation, then a reload on the deep link.
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Skills' }).click();
    await page.waitForURL(`**/console/${P}/skills`);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Skills', exact: true }).getAttribute('aria-current')).toBe('page');
  });

  it('keyboard only: skip link, section links, a Skill opened and its tabs switched', async () => {
    const page = await ui.start();
    await ui.open(`${P}/overview`);
    await ui.loaded();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    // Tab through the header to the section links, then open Skills with Enter.
    for (let i = 0; i < 12; i += 1) {
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Skills') break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Skills' }).waitFor();
    // The new page's heading takes focus (screen readers announce it), in an effect after the
    // heading renders: read at once, a loaded machine saw the link that was clicked still focused.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1').catch(() => undefined);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await ui.loaded();
    await page.getByRole('link', { name: 'investigate-roas-drop' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'History' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Version 1' }).waitFor();
  });

  it('the project picker lists the demo project and who you are; a phone-width page works', async () => {
    const page = await ui.start({ width: 390, height: 844 });
    await ui.open('');
    await page.getByRole('link', { name: /Demo: Northwind/ }).waitFor();
    await page.getByText('every project').waitFor();
    await ui.check('projects-390');
    await page.getByRole('link', { name: /Demo: Northwind/ }).click();
    await page.locator('[data-loaded="true"]').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await ui.check('overview-390');
    for (const path of [`${P}/skills/investigate-roas-drop`, `${P}/anomalies`, `${P}/datastreams`, 'org/members']) {
      await ui.open(path);
      await ui.loaded();
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(wider, path).toBeLessThanOrEqual(0);
    }
    await ui.check('members-390');
  });
});

import type { Browser, Frame, Page } from 'playwright-core';
import { expect } from 'vitest';
import { artifactPath, seriousViolations, shoot, viewHeights, watchErrors } from './browser.js';

const VIEWPORT = { width: 820, height: 900 };

/**
 * Renders views the way a chat host does (the test host page, a real call to the running service)
 * and checks what every view owes its host: its size reported and honoured, no serious or critical
 * axe-core violation in light and dark, under our style variables and under the MCP Apps reference
 * host's, no page error; screenshots under test-artifacts/widgets/. Its page closes with the suite's
 * browser handle (browser.ts).
 */
export class ViewHarness {
  page!: Page;
  private errors: string[] = [];
  private shared?: Page;

  constructor(
    private readonly browser: Browser,
    private readonly hostUrl: string,
    private readonly serviceUrl: string,
    private readonly store: string,
  ) {}

  /** Loads the test host, renders `tool`'s view with a real call and returns the view's frame. */
  async render(tool: string, args: Record<string, unknown>, theme: 'light' | 'dark' = 'light') {
    // One page per harness, loaded afresh for each view: the host's document, its MCP client and
    // the view's iframe are all new, as with a new page, without a new context and renderer
    // process each time (~0.6 s a view on this machine; BENCHMARKS.md, tests).
    if (!this.shared || this.shared.isClosed()) {
      this.shared = await this.browser.newPage({ viewport: VIEWPORT });
      this.errors = watchErrors(this.shared);
    }
    this.page = this.shared;
    this.errors.length = 0;
    await this.page.setViewportSize(VIEWPORT);
    await this.page.goto(this.hostUrl);
    const run = await this.page.evaluate((o) => window.contextHubHost.run(o), {
      mcp: `${this.serviceUrl}/mcp`,
      tool,
      args,
      theme,
    });
    const frame = this.page.frames().find((f) => f !== this.page.mainFrame());
    if (!frame) throw new Error('the host embedded no view');
    return { frame, run };
  }

  async check(frame: Frame, name: string) {
    // The view reports its size through the host; the host sized the iframe to all of it.
    await expect
      .poll(async () => {
        const h = await viewHeights(this.page, frame);
        return Math.abs(h.content - h.iframe) <= 1;
      })
      .toBe(true);
    expect(await seriousViolations(frame)).toEqual([]);
    await shoot(this.page, frame, artifactPath('widgets', this.store, `${name}-light.png`));
    await this.page.evaluate(() => window.contextHubHost.setTheme('dark'));
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await seriousViolations(frame)).toEqual([]);
    await shoot(this.page, frame, artifactPath('widgets', this.store, `${name}-dark.png`));
    // The reference host's palette (web/test-host/reference-styles.ts) replaces ours variable by variable.
    for (const theme of ['light', 'dark'] as const) {
      await this.page.evaluate((t) => window.contextHubHost.setTheme(t, 'reference'), theme);
      await frame.waitForFunction(
        (t) =>
          document.documentElement.dataset.theme === t &&
          document.documentElement.style.getPropertyValue('--color-text-tertiary').startsWith('light-dark('),
        theme,
      );
      expect(await seriousViolations(frame), `${name}: axe under the reference host's ${theme} styles`).toEqual([]);
      await shoot(this.page, frame, artifactPath('widgets', this.store, `${name}-reference-${theme}.png`));
    }
    // A foreign host's light palette (another info pair): tinted text must keep AA there too.
    await this.page.evaluate(() => window.contextHubHost.setTheme('light', 'foreign'));
    await frame.waitForFunction(() =>
      document.documentElement.style.getPropertyValue('--color-background-info').includes('#dbeafe'),
    );
    expect(await seriousViolations(frame), `${name}: axe under a foreign host's light styles`).toEqual([]);
    expect(this.errors).toEqual([]);
  }
}

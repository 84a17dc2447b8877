import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { artifactPath, seriousViolations, watchErrors } from './browser.js';

/**
 * Drives the console in Chromium against a running service: opens a page, and checks what every
 * page owes (no serious or critical axe-core violation, no page error or failed request) with a
 * screenshot under test-artifacts/console/<store>/.
 */
export class ConsoleDriver {
  page!: Page;
  context!: BrowserContext;
  errors: string[] = [];
  /** Statuses a test expects (a 401 that sends the user to sign-in, a refused write). */
  allowedStatuses = new Set<number>();

  constructor(
    private readonly browser: Browser,
    readonly serviceUrl: string,
    private readonly store: string,
  ) {}

  async start(viewport = { width: 1280, height: 900 }, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    this.context = await this.browser.newContext({ viewport, colorScheme });
    this.page = await this.context.newPage();
    this.errors = watchErrors(this.page);
    return this.page;
  }

  async open(path: string): Promise<Page> {
    await this.page.goto(`${this.serviceUrl}/console/${path}`);
    return this.page;
  }

  /** The page's data arrived: its element marked data-loaded (present even when the list is empty). */
  async loaded(): Promise<void> {
    await this.page.locator('[data-loaded="true"]').first().waitFor({ state: 'attached' });
  }

  /** axe-core in the page's current state, a screenshot, and the errors seen so far. */
  async check(name: string): Promise<void> {
    expect(await seriousViolations(this.page.mainFrame()), `${name}: axe`).toEqual([]);
    await this.page.screenshot({ path: artifactPath('console', this.store, `${name}.png`), fullPage: true });
    const unexpected = this.errors.filter((e) => {
      const status = /^http (\d+)/.exec(e)?.[1];
      if (status && this.allowedStatuses.has(Number(status))) return false;
      // Chromium logs each failed fetch as a console error next to the response: one is enough.
      return !/^console: Failed to load resource/.test(e);
    });
    expect(unexpected, `${name}: errors`).toEqual([]);
    this.errors.length = 0;
  }

  async close(): Promise<void> {
    await this.context?.close();
  }
}

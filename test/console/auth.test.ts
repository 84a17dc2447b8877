import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestOidcProvider } from '../support/auth/oidc.js';
import { launchBrowser } from '../support/browser.js';
import { ConsoleDriver } from '../support/console.js';
import { freePort } from '../support/process.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';
const TOKEN = 'console-static-token-0123456789abcdef';
const SKILL = 'investigate-roas-drop';

describe.each(STORES)('console sign-in [%s]', (store) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('static token', () => {
    let service: RunningService;
    let ui: ConsoleDriver;
    beforeAll(async () => {
      service = await startService(store, {
        demo: true,
        env: { SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: TOKEN },
      });
      ui = new ConsoleDriver(browser, service.url, store);
      await ui.start();
      // Unauthenticated probes and a wrong token answer 401 by design.
      ui.allowedStatuses.add(401);
    });
    afterAll(async () => {
      await ui?.close();
      await service?.close();
    });

    it('the token is typed once, kept for the session only (never localStorage, never in a URL)', async () => {
      const page = ui.page;
      expect((await api(`${service.url}/api/console/config`)).body).toEqual({ auth_mode: 'static', oauth: null });
      await ui.open(`${P}/skills`);
      await page.getByRole('heading', { name: 'Sign in to Context Hub' }).waitFor();
      await ui.check('signin-static');
      await page.getByLabel('Access token').fill('not-the-token-but-long-enough-0000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('This token is not accepted by the service.').waitFor();
      await page.getByLabel('Access token').fill(TOKEN);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('table[data-loaded="true"]').waitFor();
      expect(page.url()).not.toContain(TOKEN);
      const stored = await page.evaluate(() => ({
        local: JSON.stringify(localStorage),
        session: JSON.stringify(sessionStorage),
      }));
      expect(stored.local).not.toContain(TOKEN);
      expect(stored.session).toContain(TOKEN);
      // A reload in the same tab stays signed in.
      await page.reload();
      await page.locator('table[data-loaded="true"]').waitFor();
    });

    it('an expired token leads back to sign-in without losing the draft being edited', async () => {
      const page = ui.page;
      await ui.open(`${P}/skills/${SKILL}`);
      await page.getByText('Version 1 of 1').waitFor();
      await page.getByRole('tab', { name: 'Edit' }).click();
      const body = page.getByLabel('Body (Markdown)');
      const draft = `${await body.inputValue()}\n\nA line typed before the session ended.\n`;
      // The token stops being accepted (rotated on the server, or expired): the next call is a 401,
      // here the live preview's parse of what is typed next.
      await page.evaluate(() =>
        sessionStorage.setItem('context-hub.console.token', 'revoked-token-0000000000000000000'),
      );
      await body.fill(draft);
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Your session has ended' }).waitFor();
      await ui.check('signin-expired');
      await dialog.getByLabel('Access token').fill(TOKEN);
      await dialog.getByRole('button', { name: 'Sign in' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await body.inputValue()).toBe(draft);
      await page.getByRole('button', { name: 'Save as next version' }).click();
      await page.getByText('Saved as version 2.').waitFor();
      const saved = await api(`${service.url}/api/skills/${SKILL}?project_id=${P}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(saved.body.body_md).toContain('A line typed before the session ended.');
    });
  });

  describe('OAuth 2.1 authorization code with PKCE against a real OpenID provider', () => {
    let service: RunningService;
    let op: TestOidcProvider;
    let ui: ConsoleDriver;
    beforeAll(async () => {
      op = await TestOidcProvider.start('viewer-1');
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      // The console's client, registered as an operator would: public (PKCE), redirect to /console/callback.
      const registered = await api(`${op.issuer}/reg`, {
        method: 'POST',
        json: {
          client_name: 'Context Hub console',
          redirect_uris: [`${origin}/console/callback`],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      });
      expect(registered.status, JSON.stringify(registered.body)).toBe(201);
      service = await startService(store, {
        demo: true,
        env: {
          PORT: String(port),
          SERVICE_AUTH_MODE: 'oauth',
          OAUTH_ISSUER: op.issuer,
          OAUTH_JWKS_URL: op.jwksUrl,
          OAUTH_AUDIENCE: origin,
          CONSOLE_OAUTH_CLIENT_ID: registered.body.client_id,
        },
      });
      const system = service.app.systemContext();
      await service.app.services.org.members.create(system, {
        subject: 'viewer-1',
        role: 'viewer',
        grants: [{ project_id: P, role: 'viewer' }],
      });
      ui = new ConsoleDriver(browser, service.url, store);
      await ui.start();
      ui.allowedStatuses.add(401);
    });
    afterAll(async () => {
      await ui?.close();
      await service?.close();
      await op?.close();
    });

    it('sign-in goes through the provider and back; identity and grants are shown; the token stays in memory', async () => {
      const page = ui.page;
      const config = (await api(`${service.url}/api/console/config`)).body;
      expect(config.auth_mode).toBe('oauth');
      expect(config.oauth.issuer).toBe(op.issuer);
      expect(config.oauth.resource).toBe(service.url);
      // The console may reach the issuer (discovery, token endpoint) and nothing else but itself.
      const csp = (await fetch(`${service.url}/console/`)).headers.get('content-security-policy') ?? '';
      expect(csp).toContain(`connect-src 'self' ${op.issuer}`);
      await ui.open(`${P}/skills/${SKILL}`);
      await page.getByRole('button', { name: 'Sign in with your identity provider' }).click();
      // Back from the provider on the page the user asked for, the code gone from the URL.
      await page.getByRole('heading', { level: 1, name: SKILL }).waitFor();
      expect(page.url()).toBe(`${service.url}/console/${P}/skills/${SKILL}`);
      const request = op.authorizations.at(-1)!;
      expect(request.resource).toBe(service.url);
      expect(request.scope.split(' ')).toContain('context.read');
      await page.getByText('viewer-1').first().waitFor();
      const stored = await page.evaluate(() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage));
      expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
      await ui.check('oauth-skill-viewer');
      // Within the app (a reload would start a new sign-in: the token lives in this page's memory only).
      await page.getByRole('link', { name: 'Context Hub' }).click();
      await page.getByText(`${P} (viewer)`).waitFor();
      await ui.check('oauth-projects');
    });

    it('a read-only member is offered no write action anywhere', async () => {
      const page = ui.page;
      // A reload loses the in-memory token: sign in again (the provider's session makes it one click).
      await ui.open(`${P}/skills/${SKILL}`);
      const tokenAnswer = page.waitForResponse((r) => r.url().startsWith(op.issuer) && r.url().endsWith('/token'));
      await page.getByRole('button', { name: 'Sign in with your identity provider' }).click();
      const accessToken = ((await (await tokenAnswer).json()) as { access_token: string }).access_token;
      await page.getByText('Version 1 of 1').waitFor();
      const writes =
        /^(Edit|Delete|New skill|New sheet|New key|Edit key|Delete key|Link|Run now|Edit schedule|New datastream|New connection|Verify|Rotate secrets|New event|Save settings|Add member)$/;
      expect(await page.getByRole('tab', { name: 'Edit' }).count()).toBe(0);
      for (const section of ['skills', 'knowledge', 'taxonomy', 'datastreams', 'connections', 'events', 'anomalies']) {
        await page
          .getByRole('navigation', { name: 'Project sections' })
          .getByRole('link', { name: new RegExp(`^${section}`, 'i') })
          .click();
        await page.getByRole('heading', { level: 1, name: new RegExp(`^${section}$`, 'i') }).waitFor();
        await ui.loaded();
        if (section === 'anomalies') await page.getByRole('tab', { name: 'Settings' }).click();
        if (section === 'anomalies') await page.getByRole('table').first().waitFor();
        const buttons = await page.getByRole('button').allTextContents();
        expect(
          buttons.filter((b) => writes.test(b.trim())),
          section,
        ).toEqual([]);
        expect(await page.getByLabel('Import a SKILL.md').count()).toBe(0);
      }
      await ui.check('viewer-events');
      // The API still refuses what the console does not offer.
      const refused = await api(`${service.url}/api/skills/${SKILL}?project_id=${P}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${accessToken}` },
        json: { description: 'not allowed' },
      });
      expect(refused.status).toBe(403);
    });
  });
});

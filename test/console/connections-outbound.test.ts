import dns from 'node:dns';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/platform/outbound/address-policy.js';
import { consoleSuite } from '../support/console.js';
import { type NangoServer, startNangoServer } from '../support/nango-server.js';
import { api } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';
const KEY = 'google-ads-prod';
/** This machine's own name resolves inside: the policy refuses it at verify, not at creation. */
const NAME = os.hostname();
const resolved = await dns.promises.lookup(NAME, { all: true }).catch(() => []);
const NAME_IS_INSIDE = resolved.length > 0 && resolved.some((a) => !classifyAddress(a.address).allowed);

describe.runIf(NAME_IS_INSIDE).each(STORES)(
  'console: where credentials come from, token state, refusal [%s]',
  (store) => {
    let nango: NangoServer;
    const env: Record<string, string> = {};
    beforeAll(async () => {
      nango = await startNangoServer({ pages: 1, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      env.NANGO_URL = nango.url;
      env.NANGO_SECRET_KEY = nango.secretKey;
    });
    const suite = consoleSuite(store, { env });
    afterAll(async () => {
      await nango?.close();
    });

    it('a Nango connection shows its source and token state, and the outbound refusal after verify', async () => {
      nango.connections.set(`${KEY}/nango-ads`, { exhausted: false });
      const created = await api(`${suite.service.url}/api/credentials`, {
        method: 'POST',
        json: {
          project_id: P,
          provider: 'http_json',
          connection_ref_id: 'nango-ads',
          config: {
            url: `https://${NAME}:8443/v1/records`,
            nango: { provider_config_key: KEY },
            mapping: { date: 'day', campaign_id: 'campaign', spend: 'spend' },
            defaults: { channel: 'search', currency: 'EUR' },
          },
        },
      });
      expect(created.status).toBe(200);
      const { page } = suite.ui;
      await suite.ui.open(`${P}/connections`);
      await suite.ui.loaded();
      const card = page.getByRole('listitem', { name: 'Connection nango-ads' });
      await card.getByText(`Nango (integration ${KEY})`).waitFor();
      await card.getByRole('button', { name: 'Verify' }).click();
      await card.getByRole('status', { name: 'Verification result' }).waitFor();
      const refusal =
        `refused by the outbound policy: ${NAME} resolves to a private address (loopback); ` +
        'set OUTBOUND_ALLOW_PRIVATE_NETWORKS=true for on-premises sources';
      const note = card.getByRole('note', { name: 'Outbound policy' });
      await note.waitFor();
      expect(await note.textContent()).toBe(refusal);
      const fact = async (name: string) => (await card.locator(`dt:text-is("${name}") + dd`).textContent())?.trim();
      expect(await fact('Credentials from')).toBe(`Nango (integration ${KEY})`);
      // Times as the console formats them (a date and a time), not the empty mark.
      expect(await fact('Token expires')).toMatch(/\d{4}, \d{1,2}:\d{2}/);
      expect(await fact('Last token refresh')).toMatch(/\d{4}, \d{1,2}:\d{2}/);
      // A Nango connection has no secrets to rotate here: it offers a connect link instead.
      expect(await card.getByRole('button', { name: 'Rotate secrets' }).count()).toBe(0);
      await card.getByRole('button', { name: 'Nango connect link' }).click();
      const link = card.getByRole('status', { name: 'Connect link' }).getByRole('link');
      expect(await link.getAttribute('href')).toBe('https://connect.nango.dev?session_token=nango_connect_session_abc');
      expect(nango.sessions).toHaveLength(1);
      expect(await page.content()).not.toContain(nango.secretKey);
      await suite.ui.check('connections-outbound');
    });
  },
);

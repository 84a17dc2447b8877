import { addDays, todayIn } from '../../src/platform/calendar.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpReceiver, slackReceiver, WebhookReceiver } from '../support/alert-receivers.js';
import { consoleSuite } from '../support/console.js';
import { awaitRun } from '../support/flows.js';
import { api } from '../support/service.js';
import { until } from '../support/scratch-database.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';

describe.each(STORES)('console: alert destinations, rules, mutes and the delivery log [%s]', (store) => {
  const suite = consoleSuite(store, {
    env: {
      ALERTS_ALLOW_PRIVATE_NETWORKS: 'true',
      PUBLIC_BASE_URL: 'https://hub.example.com',
      ALERTS_RETRY_BASE_SECONDS: '1',
    },
  });
  const slack = slackReceiver();
  const webhook = new WebhookReceiver();
  const refusing = new HttpReceiver({ status: 410, body: 'channel_is_archived' });

  beforeAll(async () => {
    await Promise.all([slack, webhook, refusing].map((r) => r.start()));
  });
  afterAll(async () => {
    await Promise.all([slack, webhook, refusing].map((r) => r.close()));
  });

  it('create destinations; the webhook secret is shown once; the test button shows the outcome', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/alerts`);
    await suite.ui.loaded();
    await page.getByRole('link', { name: 'Destinations' }).waitFor();
    await page.getByRole('button', { name: 'New destination' }).click();
    let form = page.getByRole('form', { name: 'New destination' });
    await form.getByLabel('Name').fill('Ops webhook');
    await form.getByLabel('Kind').selectOption('webhook');
    await form.getByLabel('URL (secret)').fill(webhook.url);
    await form.getByRole('button', { name: 'Create destination' }).click();
    const notice = page.getByRole('status', { name: 'Signing secret' });
    const secret = (await notice.locator('.mono').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    webhook.secret = secret;
    await suite.ui.check('alert-destinations-secret');
    await notice.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'New destination' }).click();
    form = page.getByRole('form', { name: 'New destination' });
    await form.getByLabel('Name').fill('Slack #marketing');
    await form.getByLabel('URL (secret)').fill(slack.url);
    await form.getByRole('button', { name: 'Create destination' }).click();
    const card = page.getByRole('listitem', { name: 'Destination Slack #marketing' });
    await card.getByText('url: stored (write-only)').waitFor();
    await card.getByRole('button', { name: 'Send test' }).click();
    await card.getByRole('status', { name: 'Test result' }).getByText('Delivered · HTTP 200').waitFor();
    const [hit] = await slack.received(1);
    expect(hit!.problems).toEqual([]);
    expect(await page.content()).not.toContain(slack.url);

    await page.getByRole('button', { name: 'New destination' }).click();
    form = page.getByRole('form', { name: 'New destination' });
    await form.getByLabel('Name').fill('Archived channel');
    await form.getByLabel('URL (secret)').fill(refusing.url);
    await form.getByRole('button', { name: 'Create destination' }).click();
    const archived = page.getByRole('listitem', { name: 'Destination Archived channel' });
    await archived.getByRole('button', { name: 'Send test' }).click();
    const result = archived.getByRole('status', { name: 'Test result' });
    await result.getByText('the receiver refused the message (410)').waitFor();
    await result.getByText('channel_is_archived').waitFor();
    // A refused email setting is shown next to its field.
    await page.getByRole('button', { name: 'New destination' }).click();
    form = page.getByRole('form', { name: 'New destination' });
    await form.getByLabel('Name').fill('Mail');
    await form.getByLabel('Kind').selectOption('email');
    await form.getByLabel('SMTP host').fill('smtp.example.com');
    await form.getByLabel('From').fill('hub@example.com');
    await form.getByLabel('To (comma-separated)').fill('not an address');
    suite.ui.allowedStatuses.add(400);
    await form.getByRole('button', { name: 'Create destination' }).click();
    await form.getByRole('alert').first().waitFor();
    await suite.ui.check('alert-destinations');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('create a rule; a run sends one grouped message; mutes; the delivery log with its attempts', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/alerts/rules`);
    await suite.ui.loaded();
    await page.getByRole('button', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByLabel('Name').fill('Paid search to Slack');
    await form.getByLabel('Slack #marketing').check();
    await form.getByLabel('Ops webhook').check();
    await form.getByLabel('Failed data-quality checks').check();
    await form.getByLabel('Minimum |z|').fill('2');
    await form.getByLabel('Hold messages during quiet hours and send them when they end').check();
    await suite.ui.check('alert-rule-form');
    await form.getByLabel('Hold messages during quiet hours and send them when they end').uncheck();
    await form.getByRole('button', { name: 'Create rule' }).click();
    const card = page.getByRole('listitem', { name: 'Rule Paid search to Slack' });
    await card
      .getByText('Slack #marketing (slack), Ops webhook (webhook)')
      .or(card.getByText('Ops webhook (webhook), Slack #marketing (slack)'))
      .waitFor();
    await card.getByText('|z| ≥ 2').waitFor();
    await suite.ui.check('alert-rules');

    const flows = await api(`${suite.service.url}/api/flows?project_id=${P}`);
    const queued = await api(`${suite.service.url}/api/flows/${flows.body.datastreams[0].id}/run`, { method: 'POST' });
    expect((await awaitRun(suite.service, P, queued.body.id)).status).toBe('succeeded');
    const [hook] = await webhook.received(1);
    expect(hook!.problems).toEqual([]);
    expect((hook!.json as any).data.rule.name).toBe('Paid search to Slack');
    await slack.received(2);

    await suite.ui.open(`${P}/alerts/mutes`);
    await suite.ui.loaded();
    const mute = page.getByRole('form', { name: 'New mute' });
    await mute.getByLabel('Metric').selectOption('spend');
    // A month after the service's today in the project's zone: a date that stays ahead of any calendar.
    const project = (await api(`${suite.service.url}/api/projects/${P}`)).body;
    const mutedUntil = addDays(todayIn(suite.service.app.services.deps.clock, project.timezone), 30);
    await mute.getByLabel('Until (inclusive)').fill(mutedUntil);
    await mute.getByLabel('Reason').fill('Budget reshuffle');
    await mute.getByRole('button', { name: 'Mute' }).click();
    await page.getByRole('cell', { name: 'Budget reshuffle' }).waitFor();
    await suite.ui.check('alert-mutes');

    await until(
      async () =>
        (await api(`${suite.service.url}/api/alerts/deliveries?project_id=${P}&status=delivered`)).body.deliveries,
      (d: any[]) => d.filter((x) => x.rule.name === 'Paid search to Slack').length === 2,
    );
    await suite.ui.open(`${P}/alerts/deliveries`);
    await suite.ui.loaded();
    const delivered = page.getByRole('listitem').filter({ hasText: 'Paid search to Slack' }).first();
    await delivered.getByText('1 attempt of').click();
    await delivered.getByRole('table').getByText('delivered').waitFor();
    await suite.ui.check('alert-deliveries');
    await page.getByLabel('Status').selectOption('failed');
    const failed = page.getByRole('listitem').filter({ hasText: 'Archived channel' });
    await failed.getByRole('button', { name: 'Send again' }).waitFor();
    await suite.ui.check('alert-deliveries-failed');
  });

  it('the alert pages at phone width', async () => {
    const { page } = suite.ui;
    await suite.ui.close();
    const phone = await suite.ui.start({ width: 390, height: 844 });
    phone.on('dialog', (d) => void d.accept());
    for (const sub of ['destinations', 'rules', 'mutes', 'deliveries']) {
      await suite.ui.open(`${P}/alerts/${sub}`);
      await suite.ui.loaded();
      await suite.ui.check(`alert-${sub}-390`);
    }
    expect(page).toBeDefined();
  });
});

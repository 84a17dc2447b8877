import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  pagerDutyReceiver,
  SmtpReceiver,
  slackReceiver,
  teamsReceiver,
  WebhookReceiver,
} from '../support/alert-receivers.js';
import { addDays, todayIn } from '../../src/platform/calendar.js';
import { TestIdp } from '../support/auth/idp.js';
import { createProject } from '../support/flows.js';
import { logCapture } from '../support/log-capture.js';
import { api, type RunningService, startService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { ALERT_ENV, createDestination, createRule, deliveries } from './support.js';

const P = 'proj_dest';
const SECRETS = {
  password: 'smtp-pass-5e3cret-never-shown',
  routing: 'PDKEY-5e3cret-never-shown-000000',
  slackPath: 'T000/B000/slack-5e3cret-never-shown',
};

describe.each(STORES)('alert destinations: secrets, validation, the test button [%s]', (store) => {
  let service: RunningService;
  const logs = logCapture();
  const webhook = new WebhookReceiver();
  const slack = slackReceiver();
  const teams = teamsReceiver();
  const pagerduty = pagerDutyReceiver();
  const smtp = new SmtpReceiver({ user: 'hub', password: SECRETS.password });
  const ids: Record<string, string> = {};
  let firstSecret = '';

  beforeAll(async () => {
    await Promise.all([webhook, slack, teams, pagerduty, smtp].map((r) => r.start()));
    service = await startService(store, {
      env: { ...ALERT_ENV, LOG_LEVEL: 'debug' },
      logDestination: logs.destination,
    });
    await createProject(service, P);
  });
  afterAll(async () => {
    await service?.close();
    await Promise.all([webhook, slack, teams, pagerduty, smtp].map((r) => r.close()));
  });

  it('creates each kind; secrets go in and never come out; a webhook secret is shown once', async () => {
    const hook = await createDestination(service, {
      project_id: P,
      name: 'Hook',
      kind: 'webhook',
      secrets: { url: webhook.url },
    });
    expect(hook.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    firstSecret = hook.signing_secret!;
    webhook.secret = firstSecret;
    ids.webhook = hook.id;
    ids.slack = (
      await createDestination(service, {
        project_id: P,
        name: 'Slack',
        kind: 'slack',
        secrets: { url: `${slack.url}/${SECRETS.slackPath}` },
      })
    ).id;
    ids.teams = (
      await createDestination(service, { project_id: P, name: 'Teams', kind: 'teams', secrets: { url: teams.url } })
    ).id;
    ids.email = (
      await createDestination(service, {
        project_id: P,
        name: 'Mail',
        kind: 'email',
        config: { host: '127.0.0.1', port: smtp.port, from: 'hub@example.com', to: ['a@example.com', 'b@example.com'] },
        secrets: { user: 'hub', password: SECRETS.password },
      })
    ).id;
    ids.pagerduty = (
      await createDestination(service, {
        project_id: P,
        name: 'PD',
        kind: 'pagerduty',
        config: { events_url: pagerduty.url },
        secrets: { routing_key: SECRETS.routing },
      })
    ).id;
    const list = await api(`${service.url}/api/alerts/destinations?project_id=${P}`);
    expect(list.status).toBe(200);
    const text = JSON.stringify(list.body);
    for (const secret of [...Object.values(SECRETS), firstSecret, webhook.url]) expect(text).not.toContain(secret);
    const byName = Object.fromEntries(list.body.destinations.map((d: any) => [d.name, d]));
    expect(byName.Hook).toMatchObject({
      kind: 'webhook',
      secret_fields: ['signing_secret', 'url'],
      target: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    });
    expect(byName.Hook.signing_secret).toBeUndefined();
    expect(byName.Mail).toMatchObject({
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        require_tls: false,
        to: ['a@example.com', 'b@example.com'],
      },
      secret_fields: ['password', 'user'],
    });
    expect(byName.PD).toMatchObject({ secret_fields: ['routing_key'] });
    const one = await api(`${service.url}/api/alerts/destinations/${ids.webhook}`);
    expect(one.body.signing_secret).toBeUndefined();
  });

  it('the test button sends through every kind and answers the outcome', async () => {
    for (const kind of ['webhook', 'slack', 'teams', 'email', 'pagerduty']) {
      const res = await api(`${service.url}/api/alerts/destinations/${ids[kind]}/test`, { method: 'POST' });
      expect(res.status, kind).toBe(200);
      expect(res.body, kind).toMatchObject({ ok: true, error: null, delivery_id: expect.stringMatching(/^msg_/) });
    }
    const [hook] = await webhook.received(1);
    expect(hook!.problems).toEqual([]);
    expect((hook!.json as any).type).toBe('alert.test');
    expect((await slack.received(1))[0]!.problems).toEqual([]);
    expect((await teams.received(1))[0]!.problems).toEqual([]);
    const [mail] = await smtp.received(1);
    expect(mail).toMatchObject({
      subject: 'Test message from Context Hub to Mail',
      to: ['a@example.com', 'b@example.com'],
    });
    // PagerDuty: an info incident, resolved right after so nobody stays paged.
    const [trigger, resolve] = await pagerduty.received(2);
    expect(trigger!.json).toMatchObject({ event_action: 'trigger', payload: { severity: 'info' } });
    expect(resolve!.json).toEqual({
      routing_key: SECRETS.routing,
      event_action: 'resolve',
      dedup_key: (trigger!.json as any).dedup_key,
    });
    const dest = await api(`${service.url}/api/alerts/destinations/${ids.slack}`);
    expect(dest.body.last_test).toMatchObject({ ok: true, http_status: 200 });
    const tests = (await deliveries(service, P)).filter((d) => d.rule.name === '(test)');
    expect(tests.map((d) => (d as any).event_type).sort()).toEqual([
      'alert.resolved',
      'alert.test',
      'alert.test',
      'alert.test',
      'alert.test',
      'alert.test',
    ]);
  });

  it('a failed test is an answer that says why; the receiver’s refusal is in it', async () => {
    slack.script = [{ status: 404, body: 'no_service' }];
    const res = await api(`${service.url}/api/alerts/destinations/${ids.slack}/test`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: false,
      http_status: 404,
      error: 'the receiver refused the message (404)',
      response_excerpt: 'no_service',
    });
    const [d] = await deliveries(service, P, { destination_id: ids.slack });
    expect(d).toMatchObject({ status: 'failed', attempt_count: 1 });
  });

  it('rotating the signing secret shows the new one once; messages are signed with it', async () => {
    const res = await api(`${service.url}/api/alerts/destinations/${ids.webhook}`, {
      method: 'PATCH',
      json: { rotate_signing_secret: true, name: 'Hook 2' },
    });
    expect(res.status).toBe(200);
    expect(res.body.signing_secret).toMatch(/^whsec_/);
    expect(res.body.signing_secret).not.toBe(firstSecret);
    webhook.secret = res.body.signing_secret;
    await api(`${service.url}/api/alerts/destinations/${ids.webhook}/test`, { method: 'POST' });
    const hits = await webhook.received(2);
    expect(hits[1]!.problems).toEqual([]);
    expect(() => new Webhook(firstSecret).verify(hits[1]!.body, hits[1]!.headers as Record<string, string>)).toThrow();
    // Secrets merge: a new URL keeps the signing secret.
    const moved = await api(`${service.url}/api/alerts/destinations/${ids.webhook}`, {
      method: 'PATCH',
      json: { secrets: { url: `${webhook.url}?moved=1` } },
    });
    expect(moved.body.secret_fields).toEqual(['signing_secret', 'url']);
    expect(moved.body.signing_secret).toBeUndefined();
  });

  it('refuses bad settings field by field, never echoing a secret', async () => {
    const bad = await api(`${service.url}/api/alerts/destinations`, {
      method: 'POST',
      json: {
        project_id: P,
        name: 'Bad mail',
        kind: 'email',
        config: { host: '', port: 70000, from: 'not-an-address', to: [] },
        secrets: { user: 'u', password: SECRETS.password, token: SECRETS.routing },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual([
      'body.config.from',
      'body.config.host',
      'body.config.port',
      'body.config.to',
      'body.secrets',
    ]);
    expect(JSON.stringify(bad.body)).not.toContain(SECRETS.password);
    expect(JSON.stringify(bad.body)).not.toContain(SECRETS.routing);
    const noUrl = await api(`${service.url}/api/alerts/destinations`, {
      method: 'POST',
      json: { project_id: P, name: 'x', kind: 'slack', secrets: { url: 'ftp://example.com/x' } },
    });
    expect(noUrl.body.errors).toEqual([{ path: 'body.secrets.url', message: 'the URL must use http or https' }]);
    const own = await api(`${service.url}/api/alerts/destinations`, {
      method: 'POST',
      json: { project_id: P, name: 'x', kind: 'webhook', secrets: { url: webhook.url, signing_secret: 'whsec_mine' } },
    });
    expect(own.body.errors).toEqual([
      { path: 'body.secrets.signing_secret', message: 'is made by the service; it cannot be set' },
    ]);
    const dup = await api(`${service.url}/api/alerts/destinations`, {
      method: 'POST',
      json: { project_id: P, name: 'Slack', kind: 'slack', secrets: { url: slack.url } },
    });
    expect(dup).toMatchObject({ status: 409, body: { code: 'name_taken' } });
    const kinds = await api(`${service.url}/api/alerts/destinations`, {
      method: 'POST',
      json: { project_id: P, name: 'y', kind: 'sms', secrets: {} },
    });
    expect(kinds.status).toBe(400);
    const rotate = await api(`${service.url}/api/alerts/destinations/${ids.slack}`, {
      method: 'PATCH',
      json: { rotate_signing_secret: true },
    });
    expect(rotate.body.errors).toEqual([
      { path: 'body.rotate_signing_secret', message: 'only webhook destinations sign' },
    ]);
    expect((await api(`${service.url}/api/alerts/destinations/dest_missing`)).status).toBe(404);
  });

  it('a destination a rule uses cannot be deleted; an unused one can', async () => {
    const rule = await createRule(service, {
      project_id: P,
      name: 'Uses teams',
      on: ['run_failed'],
      destinations: [ids.teams],
    });
    const refused = await api(`${service.url}/api/alerts/destinations/${ids.teams}`, { method: 'DELETE' });
    expect(refused).toMatchObject({
      status: 409,
      body: { code: 'destination_in_use', rules: [{ id: rule.id, name: 'Uses teams' }] },
    });
    const listed = await api(`${service.url}/api/alerts/destinations/${ids.teams}`);
    expect(listed.body.rules).toEqual([{ id: rule.id, name: 'Uses teams' }]);
    expect((await api(`${service.url}/api/alerts/rules/${rule.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`${service.url}/api/alerts/destinations/${ids.teams}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`${service.url}/api/alerts/destinations/${ids.teams}`)).status).toBe(404);
  });

  it('no secret reached the log', () => {
    const text = logs.text();
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [...Object.values(SECRETS), firstSecret, webhook.secret]) expect(text).not.toContain(secret);
  });
});

describe.each(STORES)('alerts: who may do what (oauth roles) [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  const as: Record<string, { authorization: string }> = {};
  let destination = '';

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, { env: idp.env({ ...ALERT_ENV, ORG_OWNER_SUBJECT: 'owner-1' }) });
    as.owner = { authorization: `Bearer ${await idp.token('owner-1')}` };
    expect(
      (await api(`${service.url}/api/projects`, { method: 'POST', headers: as.owner, json: { id: P, name: P } }))
        .status,
    ).toBe(201);
    for (const role of ['viewer', 'editor', 'admin']) {
      const added = await api(`${service.url}/api/org/members`, {
        method: 'POST',
        headers: as.owner,
        json: { subject: role, role: 'viewer', grants: [{ project_id: P, role }] },
      });
      expect(added.status).toBe(201);
      as[role] = { authorization: `Bearer ${await idp.token(role)}` };
    }
    const d = await api(`${service.url}/api/alerts/destinations`, {
      method: 'POST',
      headers: as.admin,
      json: { project_id: P, name: 'Hook', kind: 'webhook', secrets: { url: 'https://hooks.example.com/in' } },
    });
    expect(d.status).toBe(201);
    destination = d.body.id;
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('destinations and the delivery log are an administrator’s; rules read by viewers; mutes by editors', async () => {
    const call = (who: string, method: string, path: string, json?: unknown) =>
      api(`${service.url}${path}`, { method, headers: as[who], ...(json ? { json } : {}) });
    expect((await call('editor', 'GET', `/api/alerts/destinations?project_id=${P}`)).body.code).toBe('role_forbidden');
    expect((await call('editor', 'GET', `/api/alerts/deliveries?project_id=${P}`)).status).toBe(403);
    expect((await call('editor', 'POST', `/api/alerts/destinations/${destination}/test`)).status).toBe(403);
    const rule = await call('admin', 'POST', '/api/alerts/rules', {
      project_id: P,
      name: 'R',
      on: ['anomaly'],
      destinations: [destination],
    });
    expect(rule.status).toBe(201);
    expect((await call('viewer', 'GET', `/api/alerts/rules?project_id=${P}`)).body.rules).toHaveLength(1);
    expect((await call('viewer', 'PATCH', `/api/alerts/rules/${rule.body.id}`, { enabled: false })).status).toBe(403);
    // A mute a year from the service's today: the date moves with the calendar the test runs on.
    const until = addDays(todayIn(service.app.services.deps.clock, 'UTC'), 365);
    expect((await call('viewer', 'POST', '/api/alerts/mutes', { project_id: P, metric: 'spend', until })).status).toBe(
      403,
    );
    expect((await call('editor', 'POST', '/api/alerts/mutes', { project_id: P, metric: 'spend', until })).status).toBe(
      201,
    );
    expect(
      (
        await call('editor', 'POST', '/api/alerts/rules', {
          project_id: P,
          name: 'E',
          on: ['anomaly'],
          destinations: [destination],
        })
      ).status,
    ).toBe(403);
    // Someone without a grant on the project cannot tell whether a destination exists.
    const stranger = { authorization: `Bearer ${await idp.token('stranger')}` };
    const probe = await api(`${service.url}/api/alerts/destinations/${destination}`, { headers: stranger });
    expect([401, 403, 404]).toContain(probe.status);
    expect(JSON.stringify(probe.body)).not.toContain('Hook');
  });
});

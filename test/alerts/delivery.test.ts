import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import {
  type HttpReceiver,
  pagerDutyReceiver,
  SmtpReceiver,
  slackReceiver,
  teamsReceiver,
  WebhookReceiver,
} from '../support/alert-receivers.js';
import { createProject } from '../support/flows.js';
import { api, type RunningService, startService } from '../support/service.js';
import { until } from '../support/scratch-database.js';
import { STORES } from '../support/stores.js';
import { ALERT_ENV, createDestination, createRule, deliveries, demoDatastream, runAndEvaluate } from './support.js';

const P = 'proj_alerts';

// The blocks of this file (two, times the stores under test) each run on a service, a store and
// receivers of their own, so they run at the same time (describe.concurrent); the tests of one
// block build on each other and run in order (it.sequential). Most of this file's time is waiting:
// retry backoffs, a Retry-After, and the attempt timeout of the silent receiver.

/**
 * A real run (the demo provider injects incidents) reaches a real receiver of every kind: one
 * grouped message per rule and destination, verified as each product would, and never a second
 * one for the same items however the run's facts come again.
 */
describe.concurrent.each(STORES)('alerts: one grouped message per rule and run, to every kind [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');
  const webhook = new WebhookReceiver();
  const slack = slackReceiver();
  const teams = teamsReceiver();
  const pagerduty = pagerDutyReceiver();
  const digest = new WebhookReceiver();
  const smtp = new SmtpReceiver({ user: 'alerts', password: 'smtp-password-never-logged' });
  const dest: Record<string, string> = {};
  let dsId: string;
  let firstRun: string;

  beforeAll(async () => {
    await Promise.all([webhook, slack, teams, pagerduty, digest, smtp].map((r) => r.start()));
    // Retries come due every second or two here: poll for them every half second.
    service = await startService(store, { clock, env: ALERT_ENV, jobPollingSeconds: 0.5 });
    await createProject(service, P, 'USD', 'UTC');
    dsId = await demoDatastream(service, P, '2026-04-01');
    const hook = await createDestination(service, {
      project_id: P,
      name: 'Ops webhook',
      kind: 'webhook',
      secrets: { url: webhook.url },
    });
    webhook.secret = hook.signing_secret!;
    dest.webhook = hook.id;
    dest.slack = (
      await createDestination(service, {
        project_id: P,
        name: 'Slack #data',
        kind: 'slack',
        secrets: { url: slack.url },
      })
    ).id;
    dest.teams = (
      await createDestination(service, { project_id: P, name: 'Teams', kind: 'teams', secrets: { url: teams.url } })
    ).id;
    dest.email = (
      await createDestination(service, {
        project_id: P,
        name: 'Mail',
        kind: 'email',
        config: {
          host: '127.0.0.1',
          port: smtp.port,
          secure: false,
          from: 'hub@example.com',
          to: ['oncall@example.com'],
        },
        secrets: { user: 'alerts', password: 'smtp-password-never-logged' },
      })
    ).id;
    dest.pagerduty = (
      await createDestination(service, {
        project_id: P,
        name: 'PagerDuty',
        kind: 'pagerduty',
        config: { events_url: pagerduty.url },
        secrets: { routing_key: 'R0UT1NGKEY0000000000000000000000' },
      })
    ).id;
    const d = await createDestination(service, {
      project_id: P,
      name: 'Digest hook',
      kind: 'webhook',
      secrets: { url: digest.url },
    });
    digest.secret = d.signing_secret!;
    dest.digest = d.id;
    await createRule(service, {
      project_id: P,
      name: 'Everything',
      on: ['anomaly', 'data_quality', 'run_failed'],
      destinations: [dest.webhook, dest.slack, dest.teams, dest.email, dest.pagerduty],
    });
    await createRule(service, {
      project_id: P,
      name: 'Morning digest',
      on: ['daily_insight'],
      destinations: [dest.digest],
    });
  });
  afterAll(async () => {
    await service?.close();
    await Promise.all([webhook, slack, teams, pagerduty, digest, smtp].map((r) => r.close()));
  });

  it.sequential('delivers one message per destination, each valid for its product', async () => {
    firstRun = await runAndEvaluate(service, P, dsId);
    const [hit] = await webhook.received(1);
    expect(hit!.problems).toEqual([]);
    const body = hit!.json as { type: string; timestamp: string; data: any };
    expect(body.type).toBe('alert.fired');
    const data = body.data;
    expect(data.rule.name).toBe('Everything');
    expect(data.run_id).toBe(firstRun);
    expect(data.total).toBeGreaterThan(1);
    expect(data.items.length).toBe(Math.min(10, data.total));
    expect(data.items[0]).toMatchObject({
      type: 'anomaly',
      url: expect.stringMatching(/^https:\/\/hub\.example\.com\/console\/proj_alerts\/anomalies\?/),
    });
    // The most severe first.
    const absZ = data.items.map((i: any) => Math.abs(i.z ?? 0));
    expect(absZ).toEqual([...absZ].sort((a, b) => b - a));
    expect(String(hit!.headers['webhook-id'])).toMatch(/^msg_[0-9a-f]+$/);

    const [s] = await slack.received(1);
    expect(s!.problems).toEqual([]);
    expect((s!.json as any).blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: data.title } });
    const [t] = await teams.received(1);
    expect(t!.problems).toEqual([]);
    const [pd] = await pagerduty.received(1);
    expect(pd!.problems).toEqual([]);
    expect(pd!.json).toMatchObject({
      event_action: 'trigger',
      routing_key: 'R0UT1NGKEY0000000000000000000000',
      dedup_key: data.items[0].id,
      payload: { summary: data.title, source: `context-hub/${P}` },
    });
    const [mail] = await smtp.received(1);
    expect(mail).toMatchObject({ subject: data.title, to: ['oncall@example.com'], user: 'alerts' });
    expect(mail!.text).toContain('vs baseline');
    // The demo's incidents move their totals and ratios too; those are explained, not alerted on
    // each, and the message names them with the anomaly that moved them.
    const mover = data.items.find((i: any) => i.type === 'anomaly' && i.moved_with_it.length > 0);
    expect(mover, 'an anomaly that explains others').toBeDefined();
    const moved = mover.moved_with_it[0];
    const explained = await service.app.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM anomalies_daily WHERE project_id = $1 AND metric = $2 AND channel = $3
         AND explained_by_metric = $4 AND explained_by_channel = $5 AND date BETWEEN $6 AND $7`,
      [P, moved.metric, moved.channel, mover.metric, mover.channel, mover.first_date, mover.last_date],
    );
    expect(Number(explained[0]!.n)).toBeGreaterThan(0);
    expect(mail!.text).toContain('Moved with it');
    expect(mail!.html).toContain('<h1');

    // The receivers have it; the service records each outcome right after.
    const log = await until(
      () => deliveries(service, P, { rule_id: data.rule.id }),
      (l) => l.length === 5 && l.every((d) => d.status === 'delivered'),
    );
    expect(log.map((l) => l.destination.kind).sort()).toEqual(['email', 'pagerduty', 'slack', 'teams', 'webhook']);
    for (const l of log) {
      expect(l).toMatchObject({ status: 'delivered', attempt_count: 1, item_count: data.total });
      expect(l.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: 'delivered', error: null })]);
    }
    expect(log.find((l) => l.destination.kind === 'webhook')!.attempts[0]!.http_status).toBe(204);
    expect(log.find((l) => l.destination.kind === 'slack')!.attempts[0]!.response_excerpt).toBe('ok');
    const email = log.find((l) => l.destination.kind === 'email')!;
    expect(email.attempts[0]!.response_excerpt).toMatch(/^250/);
    // The Message-ID is the message id: the same on every attempt, so a copy can be recognised.
    expect(mail!.messageId).toBe(`<${email.id}@context-hub>`);
  });

  it.sequential('sends the latest complete day’s insight as a digest, once', async () => {
    const [hit] = await digest.received(1);
    expect(hit!.problems).toEqual([]);
    const data = (hit!.json as any).data;
    expect(data.items).toHaveLength(1);
    expect(data.items[0]).toMatchObject({ type: 'daily_insight', date: '2026-05-17' });
    expect(data.items[0].kpis.map((k: any) => k.metric)).toEqual(expect.arrayContaining(['spend', 'revenue']));
    expect(data.title).toBe(`Daily insight for 2026-05-17 · ${P}`);
  });

  it.sequential('a re-run of the same window, a retried after-run job and a retried evaluation alert nobody twice', async () => {
    await runAndEvaluate(service, P, dsId);
    // What a retried after-run job does: publish the run's facts again.
    const [transformed] = await service.app.db.query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM facts WHERE type = 'dataset.transformed' AND payload->>'run_id' = $1`,
      [firstRun],
    );
    const again = await service.app.services.evaluators.facts.publish(
      'dataset.transformed',
      P,
      transformed!.payload,
      clock.now(),
    );
    const router = service.app.services.alerts.router;
    // Its job may have taken it already; either way a second evaluation finds it taken.
    await router.evaluate(again.seq);
    expect(await router.evaluate(again.seq)).toBeUndefined();
    await service.app.services.alerts.sweep(new Date(clock.now().getTime() + 60_000));
    const all = await deliveries(service, P);
    expect(all.filter((d) => d.rule.name === 'Everything')).toHaveLength(5);
    for (const r of [webhook, slack, teams, pagerduty, digest]) expect(r.hits).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);
  });

  it.sequential('a PagerDuty resolve closes the incident with the same dedup key, once', async () => {
    const key = (pagerduty.hits[0]!.json as { dedup_key: string }).dedup_key;
    const delivery = service.app.services.alerts.delivery;
    expect(await delivery.resolve(P, key)).toHaveLength(1);
    const [, resolved] = await pagerduty.received(2);
    expect(resolved!.problems).toEqual([]);
    expect(resolved!.json).toEqual({
      routing_key: 'R0UT1NGKEY0000000000000000000000',
      event_action: 'resolve',
      dedup_key: key,
    });
    expect(await delivery.resolve(P, key)).toEqual([]);
    expect(await delivery.resolve(P, 'anomaly:never-paged')).toEqual([]);
  });

  it.sequential('a run abandoned by a process that died alerts run_failed once', async () => {
    const startedLongAgo = new Date(clock.now().getTime() - 5 * 3600_000);
    await service.app.db.query(
      `INSERT INTO datastream_runs (id, project_id, datastream_id, status, trigger, window_from, window_to, attempts, queued_at, started_at)
       VALUES ('run_crashed', $1, $2, 'running', 'manual', '2026-05-12', '2026-05-18', 1, $3, $3)`,
      [P, dsId, startedLongAgo],
    );
    await runAndEvaluate(service, P, dsId);
    const hits = await webhook.received(2);
    const data = (hits[1]!.json as any).data;
    expect(hits[1]!.problems).toEqual([]);
    expect(data.items).toEqual([
      expect.objectContaining({
        type: 'run_failed',
        id: 'run:run_crashed',
        datastream: 'Main',
        error: 'abandoned: the process running it stopped before it finished',
      }),
    ]);
    expect(data.title).toBe(`Datastream Main failed in ${P}`);
    const facts = await service.app.db.query(`SELECT payload FROM facts WHERE type = 'run.failed'`);
    expect(facts).toHaveLength(1);
  });

  it.sequential('a run whose last attempt fails records run.failed with the failure, in one transaction', async () => {
    const conn = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'csv',
        connection_ref_id: 'broken',
        config: {
          // A file that is not there: the run fails reading its source.
          path: 'none.csv',
          mapping: { date: 'd', campaign_id: 'c', spend: 's' },
          defaults: { channel: 'x', currency: 'USD' },
        },
      },
    });
    expect(conn.status).toBe(200);
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name: 'Broken', connection_ref_id: 'broken', provider: 'csv', cadence: 'manual' },
      },
    });
    const ingestion = service.app.services.ingestion;
    const run = await ingestion.enqueue(
      service.app.systemContext(),
      (await service.app.services.flows.datastreamRow(ds.body.datastream.id)) as any,
      { from: '2026-05-17', to: '2026-05-17' },
      'manual',
    );
    // The job's last attempt, as pg-boss hands it over when the retries are used up.
    await expect(
      ingestion.execute({
        id: 'job',
        data: { run_id: run.id },
        retryCount: 2,
        retryLimit: 2,
        lastAttempt: true,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow();
    const [fact] = await service.app.db.query<{ payload: any }>(
      `SELECT payload FROM facts WHERE type = 'run.failed' AND payload->>'run_id' = $1`,
      [run.id],
    );
    expect(fact!.payload).toMatchObject({
      run_id: run.id,
      datastream: 'Broken',
      window: { from: '2026-05-17', to: '2026-05-17' },
    });
    const hits = await webhook.received(3);
    expect((hits[2]!.json as any).data.items[0]).toMatchObject({ type: 'run_failed', run_id: run.id });
  });
});

/**
 * The transport's bad days: each receiver misbehaves once (500, 429 with Retry-After, no answer
 * at all) and then takes the message; it counts exactly one message, under one webhook-id.
 */
const ATTEMPT_SECONDS = 3;

describe.concurrent.each(STORES)('alerts: retries, Retry-After, timeouts and dead letters [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');
  let dsId: string;
  const receivers: HttpReceiver[] = [];

  beforeAll(async () => {
    // Retries come due every second or two here: poll for them every half second. An attempt may
    // last ATTEMPT_SECONDS instead of the default 10: the receiver that never answers is waited out
    // once per store, and a loopback answer takes milliseconds even on a loaded machine.
    service = await startService(store, {
      clock,
      env: { ...ALERT_ENV, ALERTS_TIMEOUT_SECONDS: String(ATTEMPT_SECONDS) },
      jobPollingSeconds: 0.5,
    });
    await createProject(service, P, 'USD', 'UTC');
    dsId = await demoDatastream(service, P, '2026-04-20');
  });
  afterAll(async () => {
    await service?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  /** A webhook receiver with a fresh rule (so the run's items are new to it), after `script`. */
  async function scenario(name: string, script: HttpReceiver['script']) {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    receiver.script = script;
    const d = await createDestination(service, {
      project_id: P,
      name,
      kind: 'webhook',
      secrets: { url: receiver.url },
    });
    receiver.secret = d.signing_secret!;
    await createRule(service, { project_id: P, name, on: ['anomaly'], destinations: [d.id] });
    await runAndEvaluate(service, P, dsId);
    return { receiver, destination: d.id };
  }

  async function settled(destination: string) {
    for (let i = 0; i < 3000; i += 1) {
      const [d] = await deliveries(service, P, { destination_id: destination });
      if (d && (d.status === 'delivered' || d.status === 'dead')) return d;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the delivery never settled');
  }

  it.sequential('500 then 200: retried with backoff, delivered once under the same webhook-id', async () => {
    const { receiver, destination } = await scenario('flaky', [{ status: 500, body: 'upstream broke' }]);
    const d = await settled(destination);
    expect(d.status).toBe('delivered');
    expect(receiver.hits).toHaveLength(2);
    expect(receiver.hits.every((h) => h.problems.length === 0)).toBe(true);
    expect(receiver.processed).toEqual([d.id]);
    expect(d.attempts.map((a) => [a.outcome, a.http_status])).toEqual([
      ['retry', 500],
      ['delivered', 204],
    ]);
    expect(d.attempts[0]!.response_excerpt).toBe('upstream broke');
    // Backoff of the first retry with ALERTS_RETRY_BASE_SECONDS=1: a point in [0.5 s, 1 s].
    const wait = Date.parse(d.attempts[0]!.retry_at!) - Date.parse(d.attempts[0]!.finished_at!);
    expect(wait).toBeGreaterThanOrEqual(500);
    expect(wait).toBeLessThanOrEqual(1000);
  });

  it.sequential('429 with Retry-After: waits what the receiver asked, then delivers once', async () => {
    const { receiver, destination } = await scenario('throttled', [{ status: 429, headers: { 'retry-after': '2' } }]);
    const d = await settled(destination);
    expect(d.status).toBe('delivered');
    expect(receiver.processed).toEqual([d.id]);
    expect(d.attempts[0]).toMatchObject({ outcome: 'retry', http_status: 429 });
    expect(Date.parse(d.attempts[0]!.retry_at!) - Date.parse(d.attempts[0]!.finished_at!)).toBe(2000);
  });

  it.sequential('a receiver that never answers: the attempt times out, the next one delivers once', async () => {
    const { receiver, destination } = await scenario('silent', ['hang']);
    const d = await settled(destination);
    expect(d.status).toBe('delivered');
    expect(receiver.hits).toHaveLength(2);
    expect(receiver.processed).toEqual([d.id]);
    expect(d.attempts[0]).toMatchObject({
      outcome: 'retry',
      http_status: null,
      error: `no complete answer within ${ATTEMPT_SECONDS * 1000} ms`,
    });
  });

  it.sequential('a receiver that keeps failing: dead-lettered after the last attempt, visible, and sent again on request', async () => {
    const { receiver, destination } = await scenario('down', [{ status: 503 }, { status: 502 }, { status: 500 }]);
    const d = await settled(destination);
    expect(d.status).toBe('dead');
    expect(d.attempts.map((a) => a.outcome)).toEqual(['retry', 'retry', 'dead']);
    expect(d.last_error).toBe('the receiver answered 500; gave up after 3 attempts');
    expect((await deliveries(service, P, { status: 'dead' })).map((x) => x.id)).toContain(d.id);
    const again = await api(`${service.url}/api/alerts/deliveries/${d.id}/retry`, { method: 'POST' });
    expect(again.status).toBe(200);
    const after = await settled(destination);
    expect(after).toMatchObject({ id: d.id, status: 'delivered', attempt_count: 4 });
    expect(receiver.processed).toEqual([d.id]);
    const twice = await api(`${service.url}/api/alerts/deliveries/${d.id}/retry`, { method: 'POST' });
    expect(twice).toMatchObject({ status: 409, body: { code: 'delivery_not_dead' } });
  });

  it.sequential('a refusal (400) is not retried: dead at once, with the receiver’s answer', async () => {
    const { receiver, destination } = await scenario('refuses', [{ status: 400, body: '{"error":"bad payload"}' }]);
    const d = await settled(destination);
    expect(d).toMatchObject({ status: 'dead', attempt_count: 1, last_error: 'the receiver refused the message (400)' });
    expect(d.attempts[0]!.response_excerpt).toBe('{"error":"bad payload"}');
    expect(receiver.hits).toHaveLength(1);
  });
});

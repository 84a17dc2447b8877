import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { TestIdp } from '../support/auth/idp.js';
import { days, writeKpis } from '../support/kpis.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_triage';
const Q = 'proj_triage_other';
/** 30 ordinary days (spend around 100), a spike of 400 on X, then 6 ordinary days. */
const DATES = days('2026-03-01', 37);
const X = DATES[30]!;
const LATER = DATES[33]!;
const spendOf = (i: number) => (i === 30 ? 400 : 100 + (((i * 37) % 11) - 5));

describe.each(STORES)('anomaly triage [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');
  const auth: Record<string, { authorization: string }> = {};
  let anomalyId: string;
  let eventId: string;
  let otherEventId: string;

  const as = (who: string, path: string, init: { method?: string; json?: unknown } = {}) =>
    api(`${service.url}${path}`, { ...init, headers: auth[who] });
  const patch = (who: string, id: string, json: unknown) => as(who, `/api/anomalies/${id}`, { method: 'PATCH', json });

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, {
      clock,
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/unreachable' }),
    });
    for (const sub of ['owner-1', 'viewer-1', 'editor-1'])
      auth[sub] = { authorization: `Bearer ${await idp.token(sub)}` };
    for (const id of [P, Q])
      expect((await as('owner-1', '/api/projects', { method: 'POST', json: { id, name: id } })).status).toBe(201);
    for (const [subject, role] of [
      ['viewer-1', 'viewer'],
      ['editor-1', 'editor'],
    ] as const)
      expect(
        (
          await as('owner-1', '/api/org/members', {
            method: 'POST',
            json: { subject, role, grants: [{ project_id: P, role }] },
          })
        ).status,
      ).toBe(201);
    // A plain rule (mean baseline, no seasonality, no level shifts) whose baselines the test can
    // recompute; fired days stay IN later baselines, so only triage can take the spike out.
    expect(
      (
        await as('owner-1', `/api/anomalies/settings?project_id=${P}`, {
          method: 'PUT',
          json: {
            baseline: 'mean',
            seasonality: 'none',
            level_shifts: false,
            exclude_anomalies: false,
            threshold: 3,
            window_days: 28,
          },
        })
      ).status,
    ).toBe(200);
    await writeKpis(
      service,
      P,
      DATES.map((date, i) => ({ date, channel: 'A', spend: spendOf(i), revenue: 300 })),
    );
    const evaluated = await as('owner-1', `/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    expect(evaluated.status, JSON.stringify(evaluated.body)).toBe(200);
    const list = await as('viewer-1', `/api/anomalies?project_id=${P}&since=2026-03-01&metric=spend&channel=A`);
    expect(list.status).toBe(200);
    expect(list.body.anomalies).toHaveLength(1);
    expect(list.body.anomalies[0]).toMatchObject({ date: X, status: 'open' });
    anomalyId = list.body.anomalies[0].id;
    const ev = (project: string) =>
      as('owner-1', '/api/context/events', {
        method: 'POST',
        json: { project_id: project, event_type: 'promotion', title: 'Spring sale', event_date: X },
      });
    eventId = (await ev(P)).body.id;
    otherEventId = (await ev(Q)).body.id;
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  /** The baseline the rule gives LATER now (nothing written). */
  const laterBaseline = async () => {
    const r = await as(
      'viewer-1',
      `/api/anomalies/series?project_id=${P}&metric=spend&channel=A&from=${LATER}&to=${LATER}`,
    );
    expect(r.status).toBe(200);
    return r.body.points[0].baseline_mean as number;
  };
  /** The mean of LATER's 28-day window, with or without the spike day. */
  const windowMean = (withSpike: boolean) => {
    const xs = DATES.map((_, i) => i).filter((i) => i >= 33 - 28 && i < 33 && (withSpike || i !== 30));
    return xs.reduce((a, i) => a + spendOf(i), 0) / xs.length;
  };

  it('refuses a viewer, an unknown id, a stranger assignee and an event of another project', async () => {
    const viewer = await patch('viewer-1', anomalyId, { status: 'acknowledged' });
    expect(viewer.status).toBe(403);
    expect(viewer.body.code).toBe('role_forbidden');
    const unknown = await patch('editor-1', 'anom_000000000000000000000000', { status: 'acknowledged' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('anomaly_not_found');
    const stranger = await patch('editor-1', anomalyId, { assignee: 'nobody-9' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.code).toBe('assignee_not_member');
    const foreign = await patch('editor-1', anomalyId, { context_event_id: otherEventId });
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('context_event_not_in_project');
    const empty = await patch('editor-1', anomalyId, {});
    expect(empty.status).toBe(400);
    // Nothing was written by any refusal.
    expect((await as('viewer-1', `/api/anomalies/${anomalyId}/triage`)).body).toMatchObject({
      status: 'open',
      updated_by: null,
    });
  });

  it('moves through the valid transitions, refuses the others, and audits every change', async () => {
    const ack = await patch('editor-1', anomalyId, {
      status: 'acknowledged',
      note: 'Looking into it',
      assignee: 'editor-1',
      context_event_id: eventId,
    });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(ack.body).toMatchObject({
      anomaly_id: anomalyId,
      project_id: P,
      status: 'acknowledged',
      previous_status: 'open',
      note: 'Looking into it',
      assignee: 'editor-1',
      context_event_id: eventId,
      updated_by: 'editor-1',
      updated_at: '2026-05-18T12:00:00.000Z',
      allowed_next: ['open', 'resolved', 'expected', 'false_positive'],
      pagerduty_resolves: 0,
    });
    // The anomaly's own read shows the whole triage, as /triage does, with the linked event; the
    // list shows status and assignee.
    const [detail, triage] = await Promise.all([
      as('viewer-1', `/api/anomalies/${anomalyId}`),
      as('viewer-1', `/api/anomalies/${anomalyId}/triage`),
    ]);
    expect(detail.status).toBe(200);
    const { previous_status: _p, pagerduty_resolves: _r, anomaly_id: _a, project_id: _q, ...whole } = triage.body;
    expect(detail.body.triage).toMatchObject(whole);
    expect(detail.body.triage).toMatchObject({
      status: 'acknowledged',
      note: 'Looking into it',
      assignee: 'editor-1',
      context_event_id: eventId,
      context_event: { id: eventId },
      updated_by: 'editor-1',
      updated_at: '2026-05-18T12:00:00.000Z',
    });
    expect(detail.body).toMatchObject({ status: 'acknowledged', assignee: 'editor-1' });
    const listed = (await as('viewer-1', `/api/anomalies?project_id=${P}&anomaly_id=${anomalyId}`)).body;
    expect(listed.anomalies.find((a: { id: string }) => a.id === anomalyId)).toMatchObject({
      status: 'acknowledged',
      assignee: 'editor-1',
    });
    const resolved = await patch('editor-1', anomalyId, { status: 'resolved', note: null });
    expect(resolved.body).toMatchObject({ status: 'resolved', note: null, assignee: 'editor-1' });
    // A closed anomaly only reopens.
    const bad = await patch('editor-1', anomalyId, { status: 'acknowledged' });
    expect(bad.status).toBe(409);
    expect(bad.body.code).toBe('invalid_transition');
    expect(bad.body.detail).toContain('resolved');
    const reopened = await patch('editor-1', anomalyId, { status: 'open' });
    expect(reopened.body).toMatchObject({ status: 'open', previous_status: 'resolved' });

    const byStatus = async (s: string) =>
      (await as('viewer-1', `/api/anomalies?project_id=${P}&since=2026-03-01&status=${s}`)).body.anomalies.map(
        (a: { id: string }) => a.id,
      );
    expect(await byStatus('open')).toContain(anomalyId);
    expect(await byStatus('resolved')).toEqual([]);

    const audit = await as('owner-1', `/api/org/audit?action=anomaly.triage&project_id=${P}`);
    expect(audit.status).toBe(200);
    const entries = audit.body.entries.map((e: { actor: { subject: string }; target: string; details: unknown }) => ({
      by: e.actor.subject,
      target: e.target,
      details: e.details,
    }));
    expect(entries.reverse()).toEqual([
      {
        by: 'editor-1',
        target: anomalyId,
        details: {
          from: 'open',
          to: 'acknowledged',
          note_changed: true,
          assignee: 'editor-1',
          context_event_id: eventId,
        },
      },
      { by: 'editor-1', target: anomalyId, details: { from: 'acknowledged', to: 'resolved', note_changed: true } },
      { by: 'editor-1', target: anomalyId, details: { from: 'resolved', to: 'open' } },
    ]);
  });

  it('leaves expected days out of later baselines and counts false positives as normal', async () => {
    // exclude_anomalies is off: the spike is in LATER's baseline until someone says it was expected.
    expect(await laterBaseline()).toBeCloseTo(windowMean(true), 9);
    expect((await patch('editor-1', anomalyId, { status: 'expected' })).status).toBe(200);
    expect(await laterBaseline()).toBeCloseTo(windowMean(false), 9);
    // What a later evaluation stores reads the same seam.
    await as('owner-1', `/api/anomalies/evaluate?project_id=${P}&from=${DATES[31]}`, { method: 'POST' });
    const [stored] = await service.app.db.query<{ baseline_mean: number }>(
      `SELECT baseline_mean FROM anomalies_daily WHERE project_id = $1 AND metric = 'spend' AND channel = 'A' AND date = $2`,
      [P, LATER],
    );
    expect(Number(stored!.baseline_mean)).toBeCloseTo(windowMean(false), 9);

    // With exclusion on, a fired day is out of baselines; false_positive puts it back.
    const put = await as('owner-1', `/api/anomalies/settings?project_id=${P}`, {
      method: 'PUT',
      json: {
        baseline: 'mean',
        seasonality: 'none',
        level_shifts: false,
        exclude_anomalies: true,
        threshold: 3,
        window_days: 28,
      },
    });
    expect(put.status).toBe(200);
    await as('owner-1', `/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    expect((await patch('editor-1', anomalyId, { status: 'open' })).status).toBe(200);
    expect(await laterBaseline()).toBeCloseTo(windowMean(false), 9);
    expect((await patch('editor-1', anomalyId, { status: 'false_positive' })).status).toBe(200);
    expect(await laterBaseline()).toBeCloseTo(windowMean(true), 9);
    // The anomaly itself still fired, and keeps its id and its verdict through a re-evaluation.
    await as('owner-1', `/api/anomalies/evaluate?project_id=${P}`, { method: 'POST' });
    const again = await as('viewer-1', `/api/anomalies?project_id=${P}&since=2026-03-01&status=false_positive`);
    expect(again.body.anomalies.map((a: { id: string }) => a.id)).toEqual([anomalyId]);
    expect((await patch('editor-1', anomalyId, { status: 'open' })).status).toBe(200);
  });

  it('triage_anomaly: editors write, the view gets an app-only twin, errors say how to recover', async () => {
    const editor = await connectModern(service.url, auth['editor-1']!.authorization.slice(7));
    const app = await connectModern(service.url, auth['editor-1']!.authorization.slice(7), { apps: true });
    const viewer = await connectModern(service.url, auth['viewer-1']!.authorization.slice(7), { apps: true });
    try {
      const names = async (c: typeof editor) => (await c.listTools()).tools.map((t) => t.name);
      expect(await names(editor)).toContain('triage_anomaly');
      expect(await names(editor)).not.toContain('triage_anomaly_from_view');
      expect(await names(app)).toContain('triage_anomaly_from_view');

      const ok = await editor.callTool({
        name: 'triage_anomaly',
        arguments: { anomaly_id: anomalyId, status: 'acknowledged' },
      });
      expect(ok.isError).toBeFalsy();
      expect((ok.structuredContent as any).data.triage).toMatchObject({
        status: 'acknowledged',
        updated_by: 'editor-1',
      });
      const text = (r: any) => r.content.map((c: any) => c.text).join('\n');

      const missing = await editor.callTool({
        name: 'triage_anomaly',
        arguments: { anomaly_id: 'anom_ffffffffffffffffffffffff', status: 'acknowledged' },
      });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toContain('get_anomalies');

      const fromView = await app.callTool({
        name: 'triage_anomaly_from_view',
        arguments: { anomaly_id: anomalyId, status: 'resolved' },
      });
      expect(fromView.isError).toBeFalsy();
      const wrong = await app.callTool({
        name: 'triage_anomaly_from_view',
        arguments: { anomaly_id: anomalyId, status: 'expected' },
      });
      expect(wrong.isError).toBe(true);
      expect(text(wrong)).toContain('Reopen it first');

      // The same permission check on both: a viewer may do neither.
      for (const name of ['triage_anomaly', 'triage_anomaly_from_view']) {
        const denied = await viewer.callTool({ name, arguments: { anomaly_id: anomalyId, status: 'open' } });
        expect(denied.isError).toBe(true);
        expect(text(denied)).toMatch(/role_forbidden|editor/);
      }
      expect((await as('viewer-1', `/api/anomalies/${anomalyId}/triage`)).body.status).toBe('resolved');
    } finally {
      await Promise.all([editor.close(), app.close(), viewer.close()]);
    }
  });
});

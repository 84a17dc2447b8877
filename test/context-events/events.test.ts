import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextEventsDemoSeeder } from '../../src/modules/context-events/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// 12:00 UTC on 2026-11-22 is already 01:00 on 2026-11-23 in Auckland (UTC+13).
const NOW = '2026-11-22T12:00:00Z';

describe.each(STORES)('business context events [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock(NOW);
  const events = (path = '', init: Parameters<typeof api>[1] = {}) =>
    api(`${service.url}/api/context/events${path}`, init);
  const create = (json: Record<string, unknown>) =>
    events('', { method: 'POST', json: { project_id: 'proj_ev', ...json } });

  beforeAll(async () => {
    service = await startService(store, { clock });
    for (const [id, timezone] of [
      ['proj_ev', 'UTC'],
      ['proj_nz', 'Pacific/Auckland'],
    ]) {
      const res = await api(`${service.url}/api/projects`, { method: 'POST', json: { id, name: id, timezone } });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => service?.close());

  it('records an event and reads it back with its active window', async () => {
    const res = await create({
      event_type: 'release',
      title: 'Checkout v2',
      description: 'One-page checkout',
      event_date: '2026-11-20',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{16}$/),
      project_id: 'proj_ev',
      event_type: 'release',
      title: 'Checkout v2',
      description: 'One-page checkout',
      event_date: '2026-11-20',
      end_date: null,
      impact_window_days: 7,
      active_from: '2026-11-20',
      active_until: '2026-11-27',
      active_today: true,
      created_at: NOW.replace('Z', '.000Z'),
      created_by: 'operator',
      updated_at: NOW.replace('Z', '.000Z'),
    });
    const read = await events(`/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const multiDay = await create({
      event_type: 'promotion',
      title: 'Black Friday week',
      event_date: '2026-11-23',
      end_date: '2026-11-30',
      impact_window_days: 3,
    });
    expect(multiDay.body).toMatchObject({
      description: '',
      active_from: '2026-11-23',
      active_until: '2026-12-03',
      active_today: false,
    });
  });

  it('refuses impossible dates and bad fields with one errors[] entry per violation', async () => {
    const feb30 = await create({ event_type: 'outage', title: 'x', event_date: '2026-02-30' });
    expect(feb30.status).toBe(400);
    expect(feb30.headers.get('content-type')).toContain('application/problem+json');
    expect(feb30.body.errors).toEqual([{ path: 'body.event_date', message: 'is not a real calendar date' }]);

    const many = await create({
      event_type: '?!',
      title: '',
      event_date: '2026-11-5',
      impact_window_days: 91,
      colour: 'red',
    });
    expect(many.status).toBe(400);
    const paths = many.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['body', 'body.event_date', 'body.event_type', 'body.impact_window_days', 'body.title']);
    expect(many.body.errors.find((e: { path: string }) => e.path === 'body.event_type').message).toBe(
      'must contain a letter or digit',
    );

    const backwards = await create({
      event_type: 'holiday',
      title: 'Thanksgiving',
      event_date: '2026-11-26',
      end_date: '2026-11-25',
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual([
      { path: 'body.end_date', message: 'must be on or after event_date (2026-11-26)' },
    ]);

    const missing = await events('', {
      method: 'POST',
      json: { project_id: 'proj_nope', event_type: 'other', title: 'x', event_date: '2026-11-01' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('project_not_found');
  });

  it("computes active_today in the project's timezone", async () => {
    const body = { event_type: 'outage', title: 'Payment outage', event_date: '2026-11-23', impact_window_days: 0 };
    const nz = await events('', { method: 'POST', json: { ...body, project_id: 'proj_nz' } });
    expect(nz.body).toMatchObject({ active_until: '2026-11-23', active_today: true });
    const utc = await create(body);
    expect(utc.body.active_today).toBe(false);
    const yesterday = await events('', {
      method: 'POST',
      json: { ...body, project_id: 'proj_nz', event_date: '2026-11-22' },
    });
    expect(yesterday.body.active_today).toBe(false);
    clock.set('2026-11-23T00:30:00Z');
    try {
      expect((await events(`/${utc.body.id}`)).body.active_today).toBe(true);
    } finally {
      clock.set(NOW);
    }
  });

  it('lists newest event_date first, pages with a cursor, and filters by active day and type', async () => {
    const created: string[] = [];
    for (const [date, type] of [
      ['2026-10-01', 'budget_change'],
      ['2026-10-15', 'pricing_change'],
      ['2026-10-08', 'tracking_change'],
    ] as const) {
      created.push(
        (
          await events('', {
            method: 'POST',
            json: { project_id: 'proj_nz', event_type: type, title: `${type} ${date}`, event_date: date },
          })
        ).body.id,
      );
    }
    const all = await events('?project_id=proj_nz');
    const dates = all.body.events.map((e: { event_date: string }) => e.event_date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(all.body.next_cursor).toBeNull();

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { events: { id: string }[]; next_cursor: string | null } } = await events(
        `?project_id=proj_nz&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.body.events.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.events.map((e) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.body.events.map((e: { id: string }) => e.id));

    const active = await events('?project_id=proj_nz&active_on=2026-10-15');
    expect(active.body.events.map((e: { id: string }) => e.id).sort()).toEqual([created[1], created[2]].sort());
    const typed = await events('?project_id=proj_nz&event_type=budget_change');
    expect(typed.body.events.map((e: { id: string }) => e.id)).toEqual([created[0]]);

    const badCursor = await events('?project_id=proj_nz&cursor=nonsense');
    expect(badCursor.status).toBe(400);
    const noProject = await events('');
    expect(noProject.status).toBe(400);
    expect(noProject.body.errors[0].path).toBe('query.project_id');
  });

  it('activeOn gives the evaluators the events whose window covers a day, both ends inclusive', async () => {
    const a = (
      await events('', {
        method: 'POST',
        json: {
          project_id: 'proj_ev',
          event_type: 'campaign_launch',
          title: 'Window',
          event_date: '2026-09-01',
          end_date: '2026-09-03',
          impact_window_days: 2,
        },
      })
    ).body;
    const svc = service.app.services.contextEvents;
    const ids = async (day: string) => (await svc.activeOn('proj_ev', day)).map((e) => e.id);
    expect(await ids('2026-08-31')).not.toContain(a.id);
    expect(await ids('2026-09-01')).toContain(a.id);
    expect(await ids('2026-09-05')).toContain(a.id);
    expect(await ids('2026-09-06')).not.toContain(a.id);
  });

  it('changes and deletes events', async () => {
    const made = (
      await create({ event_type: 'other', title: 'Draft', event_date: '2026-11-10', end_date: '2026-11-12' })
    ).body;
    clock.set('2026-11-22T13:00:00Z');
    try {
      const patched = await events(`/${made.id}`, {
        method: 'PATCH',
        json: { title: 'Final', impact_window_days: 20, end_date: null },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        title: 'Final',
        end_date: null,
        impact_window_days: 20,
        active_until: '2026-11-30',
        active_today: true,
        created_at: made.created_at,
      });
      expect(patched.body.updated_at).toBe('2026-11-22T13:00:00.000Z');
    } finally {
      clock.set(NOW);
    }
    const backwards = await events(`/${made.id}`, { method: 'PATCH', json: { end_date: '2026-11-01' } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].path).toBe('body.end_date');
    expect((await events(`/${made.id}`, { method: 'PATCH', json: {} })).status).toBe(400);
    expect((await events(`/${made.id}`, { method: 'PATCH', json: { event_date: '2026-02-29' } })).status).toBe(400);

    const deleted = await events(`/${made.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    const gone = await events(`/${made.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('context_event_not_found');
    expect((await events(`/${made.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await events(`/${made.id}`, { method: 'PATCH', json: { title: 'x' } })).status).toBe(404);
    expect((await events('/not-an-id')).status).toBe(400);
  });

  it('serves add_context_event and list_context_events over MCP', async () => {
    const client = await connectModern(service.url);
    try {
      const added = await client.callTool({
        name: 'add_context_event',
        arguments: {
          project_id: 'proj_ev',
          event_type: 'tracking_change',
          title: 'Consent mode v2',
          event_date: '2026-11-21',
          impact_window_days: 14,
        },
      });
      expect(added.isError).toBeFalsy();
      const event = added.structuredContent as {
        meta: { project_id: string };
        data: { event: { id: string; active_today: boolean } };
      };
      expect(event.meta.project_id).toBe('proj_ev');
      expect(event.data.event.active_today).toBe(true);

      const listed = await client.callTool({
        name: 'list_context_events',
        arguments: { project_id: 'proj_ev', active_on: '2026-11-22' },
      });
      expect(listed.isError).toBeFalsy();
      const data = (
        listed.structuredContent as { data: { events: { id: string; active_from: string; active_until: string }[] } }
      ).data;
      expect(data.events.map((e) => e.id)).toContain(event.data.event.id);
      for (const e of data.events) expect(e.active_from <= '2026-11-22' && '2026-11-22' <= e.active_until).toBe(true);
      expect((listed.content as { text: string }[])[0]!.text).toContain('Consent mode v2');

      const invalid = await client.callTool({
        name: 'add_context_event',
        arguments: { project_id: 'proj_ev', event_type: 'release', title: 'x', event_date: '2026-02-30' },
      });
      expect(invalid.isError).toBe(true);
      const ambiguous = await client.callTool({ name: 'list_context_events', arguments: {} });
      expect(ambiguous.isError).toBe(true);
      expect((ambiguous.content as { text: string }[])[0]!.text).toMatch(/^project_required: .*proj_ev/);
    } finally {
      await client.close();
    }
  });

  it('seeds the demo project with recent events, once', async () => {
    // The seeder alone (demo.run also backfills the demo datastream, which is another module's test).
    const created = await api(`${service.url}/api/projects`, {
      method: 'POST',
      json: { id: 'proj_demo', name: 'Demo', timezone: 'America/New_York' },
    });
    expect(created.status).toBe(201);
    const seed = contextEventsDemoSeeder(service.store.db, service.app.services.projects);
    await seed(service.app.systemContext(), 'proj_demo');
    await seed(service.app.systemContext(), 'proj_demo');
    const demo = await events('?project_id=proj_demo');
    expect(demo.status).toBe(200);
    expect(demo.body.events.length).toBe(7);
    for (const e of demo.body.events) {
      expect(e.created_by).toBe('demo-seed');
      expect(e.event_date >= '2026-10-23' && e.event_date <= '2026-11-22').toBe(true);
    }
    expect(new Set(demo.body.events.map((e: { event_type: string }) => e.event_type)).size).toBe(7);
    expect(demo.body.events.some((e: { active_today: boolean }) => e.active_today)).toBe(true);
  });
});

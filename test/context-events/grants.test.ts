import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { TestIdp } from '../support/auth/idp.js';

const P = 'proj_grants';

describe.each(STORES)('context events and rates under grants [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  let eventId: string;
  const auth: Record<string, { authorization: string }> = {};

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, {
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/unreachable' }),
    });
    for (const sub of ['owner-1', 'viewer-1', 'editor-1', 'stranger-1'])
      auth[sub] = { authorization: `Bearer ${await idp.token(sub)}` };
    expect(
      (
        await api(`${service.url}/api/projects`, {
          method: 'POST',
          headers: auth['owner-1'],
          json: { id: P, name: 'Grants' },
        })
      ).status,
    ).toBe(201);
    for (const [subject, role] of [
      ['viewer-1', 'viewer'],
      ['editor-1', 'editor'],
      ['stranger-1', 'editor'],
    ] as const) {
      const grants = subject === 'stranger-1' ? [] : [{ project_id: P, role }];
      const added = await api(`${service.url}/api/org/members`, {
        method: 'POST',
        headers: auth['owner-1'],
        json: { subject, role, grants },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    const made = await api(`${service.url}/api/context/events`, {
      method: 'POST',
      headers: auth['editor-1'],
      json: { project_id: P, event_type: 'release', title: 'By the editor', event_date: '2026-11-01' },
    });
    expect(made.status).toBe(201);
    expect(made.body.created_by).toBe('editor-1');
    eventId = made.body.id;
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('lets a viewer read but not write', async () => {
    const list = await api(`${service.url}/api/context/events?project_id=${P}`, { headers: auth['viewer-1'] });
    expect(list.status).toBe(200);
    expect(list.body.events).toHaveLength(1);
    const post = await api(`${service.url}/api/context/events`, {
      method: 'POST',
      headers: auth['viewer-1'],
      json: { project_id: P, event_type: 'other', title: 'x', event_date: '2026-11-01' },
    });
    expect(post.status).toBe(403);
    expect(post.body.code).toBe('role_forbidden');
    const patch = await api(`${service.url}/api/context/events/${eventId}`, {
      method: 'PATCH',
      headers: auth['viewer-1'],
      json: { title: 'y' },
    });
    expect(patch.status).toBe(403);
    const client = await connectModern(service.url, auth['viewer-1']!.authorization.slice(7));
    try {
      const tool = await client.callTool({
        name: 'add_context_event',
        arguments: { project_id: P, event_type: 'other', title: 'x', event_date: '2026-11-01' },
      });
      expect(tool.isError).toBe(true);
      expect((tool.content as { text: string }[])[0]!.text).toMatch(/^role_forbidden: /);
    } finally {
      await client.close();
    }
  });

  it('hides a project and its events from an editor without a grant on it', async () => {
    const list = await api(`${service.url}/api/context/events?project_id=${P}`, { headers: auth['stranger-1'] });
    expect(list.status).toBe(403);
    expect(list.body.code).toBe('project_forbidden');
    const missing = await api(`${service.url}/api/context/events?project_id=proj_does_not_exist`, {
      headers: auth['stranger-1'],
    });
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe('project_forbidden');
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await api(`${service.url}/api/context/events/${eventId}`, {
        method,
        headers: auth['stranger-1'],
        ...(method === 'PATCH' ? { json: { title: 'z' } } : {}),
      });
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('context_event_not_found');
      expect(JSON.stringify(res.body)).not.toContain('By the editor');
    }
  });

  it('lets any member read rates and only an admin refresh them', async () => {
    const rates = await api(`${service.url}/api/money/rates?base=USD&date=2026-04-13&symbols=EUR`, {
      headers: auth['stranger-1'],
    });
    expect(rates.status).toBe(200);
    const refresh = await api(`${service.url}/api/money/rates/refresh`, { method: 'POST', headers: auth['editor-1'] });
    expect(refresh.status).toBe(403);
    const asOwner = await api(`${service.url}/api/money/rates/refresh`, { method: 'POST', headers: auth['owner-1'] });
    expect(asOwner.status).toBe(502);
    expect(asOwner.body.code).toBe('fx_feed_unreachable');
    const anonymous = await api(`${service.url}/api/money/rates`);
    expect(anonymous.status).toBe(401);
  });
});

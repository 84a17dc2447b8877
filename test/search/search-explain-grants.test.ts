import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdp } from '../support/auth/idp.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_explain';

/**
 * A ranking's score parts tell how the index weighs each field and term: editors tune the hub with
 * them, readers only need the hits. A viewer asking for them is refused; without them it searches.
 */
describe.each(STORES)('who may see why search ranked a hit [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  const as = async (sub: string, method: string, path: string, json?: unknown) =>
    api(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${await idp.token(sub)}` },
      ...(json === undefined ? {} : { json }),
    });
  const search = (sub: string, explain: boolean) =>
    as(
      sub,
      'GET',
      `/api/search?project_id=${P}&q=${encodeURIComponent('return on ad spend')}${explain ? '&explain=true' : ''}`,
    );

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, { env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1' }) });
    expect((await as('owner-1', 'POST', '/api/projects', { id: P, name: 'Explain' })).status).toBe(201);
    for (const [subject, role] of [
      ['viewer-1', 'viewer'],
      ['editor-1', 'editor'],
    ] as const) {
      const member = { subject, role: 'viewer', grants: [{ project_id: P, role }] };
      expect((await as('owner-1', 'POST', '/api/org/members', member)).status).toBe(201);
    }
    const sheet = { project_id: P, topic_id: 'roas', title: 'Return on ad spend', body_md: 'Revenue over spend.\n' };
    expect((await as('editor-1', 'POST', '/api/knowledge', sheet)).status).toBe(201);
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('refuses a viewer the score parts and still answers its plain search', async () => {
    const refused = await search('viewer-1', true);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('role_forbidden');
    const plain = await search('viewer-1', false);
    expect(plain.status).toBe(200);
    expect(plain.body.hits[0]).toMatchObject({ kind: 'knowledge', key: 'roas' });
    expect(plain.body.hits[0].explain).toBeUndefined();
  });

  it('gives an editor the score parts', async () => {
    const explained = await search('editor-1', true);
    expect(explained.status).toBe(200);
    expect(explained.body.hits[0].explain.score).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTarGz, writeTarGz } from '../../src/platform/tar.js';
import { TestIdp } from '../support/auth/idp.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_perm';
const TAR_LIMITS = { maxInflatedBytes: 1 << 24, maxEntries: 100, maxNameBytes: 1024 };
const tarOf = (entries: Record<string, string>) =>
  writeTarGz(Object.entries(entries).map(([path, text]) => ({ path, data: Buffer.from(text, 'utf8') })));

/** Restore and import are writes: a read-only member may diff and export, never restore or import. */
describe.each(STORES)('permissions of diffs, restore, export and import [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  const as = async (sub: string, method: string, path: string, init: { json?: unknown; archive?: Buffer } = {}) =>
    api(`${service.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await idp.token(sub)}`,
        ...(init.archive ? { 'content-type': 'application/gzip' } : {}),
      },
      ...(init.json === undefined ? {} : { json: init.json }),
      ...(init.archive ? { body: new Uint8Array(init.archive) } : {}),
    });
  const exportAs = async (sub: string) => {
    const res = await fetch(`${service.url}/api/projects/${P}/export`, {
      headers: { authorization: `Bearer ${await idp.token(sub)}` },
    });
    return { status: res.status, archive: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, { env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1' }) });
    expect((await as('owner-1', 'POST', '/api/projects', { json: { id: P, name: 'Perm' } })).status).toBe(201);
    for (const [subject, role] of [
      ['viewer-1', 'viewer'],
      ['editor-1', 'editor'],
    ] as const) {
      const member = { subject, role: 'viewer', grants: [{ project_id: P, role }] };
      expect((await as('owner-1', 'POST', '/api/org/members', { json: member })).status).toBe(201);
    }
    expect(
      (await as('owner-1', 'POST', '/api/org/members', { json: { subject: 'outsider', role: 'editor' } })).status,
    ).toBe(201);
    const skill = { project_id: P, name: 'check-spend', description: 'v1', body_md: '1. Look.\n' };
    expect((await as('editor-1', 'POST', '/api/skills', { json: skill })).status).toBe(201);
    expect(
      (await as('editor-1', 'PUT', `/api/skills/check-spend?project_id=${P}`, { json: { description: 'v2' } })).status,
    ).toBe(200);
    const sheet = { project_id: P, topic_id: 'spend', title: 'Spend', body_md: 'v1\n' };
    expect((await as('editor-1', 'POST', '/api/knowledge', { json: sheet })).status).toBe(201);
    expect(
      (await as('editor-1', 'PUT', `/api/knowledge/spend?project_id=${P}`, { json: { body_md: 'v2\n' } })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('a read-only member diffs and exports but cannot restore or import', async () => {
    expect((await as('viewer-1', 'GET', `/api/skills/check-spend/diff?project_id=${P}`)).status).toBe(200);
    expect((await as('viewer-1', 'GET', `/api/knowledge/spend/diff?project_id=${P}`)).status).toBe(200);
    const exported = await exportAs('viewer-1');
    expect(exported.status).toBe(200);
    for (const path of [
      `/api/skills/check-spend/restore?project_id=${P}`,
      `/api/knowledge/spend/restore?project_id=${P}`,
    ]) {
      const res = await as('viewer-1', 'POST', path, { json: { version: 1 } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('role_forbidden');
    }
    const imported = await as('viewer-1', 'POST', `/api/projects/${P}/import`, { archive: exported.archive });
    expect(imported.status).toBe(403);
    expect(imported.body.code).toBe('role_forbidden');
    expect((await as('editor-1', 'GET', `/api/skills/check-spend?project_id=${P}`)).body.version).toBe(2);
  });

  it('an editor restores and imports; a member without a grant gets the same answer as for no project', async () => {
    const restored = await as('editor-1', 'POST', `/api/skills/check-spend/restore?project_id=${P}`, {
      json: { version: 1 },
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ version: 3, description: 'v1' });
    const sheet = await as('editor-1', 'POST', `/api/knowledge/spend/restore?project_id=${P}`, {
      json: { version: 1 },
    });
    expect(sheet.body).toMatchObject({ version_number: 3, body_md: 'v1\n' });
    const { archive } = await exportAs('editor-1');
    const imported = await as('editor-1', 'POST', `/api/projects/${P}/import`, { archive });
    expect(imported.status).toBe(200);
    expect(imported.body.changes).toEqual([]);

    const outsider = await exportAs('outsider');
    expect(outsider.status).toBe(403);
    const missing = await fetch(`${service.url}/api/projects/proj_none/export`, {
      headers: { authorization: `Bearer ${await idp.token('outsider')}` },
    });
    expect(missing.status).toBe(403);
    expect(JSON.parse(outsider.archive.toString()).code).toBe((await missing.json()).code);
    const restore = await as('outsider', 'POST', `/api/skills/check-spend/restore?project_id=${P}`, {
      json: { version: 1 },
    });
    expect(restore.body.code).toBe('project_forbidden');
  });

  it("under the review policy an editor's restore and import become proposals; a reviewer's publish", async () => {
    const policy = await as('owner-1', 'PATCH', `/api/projects/${P}`, { json: { agent_writes: 'review' } });
    expect(policy.status).toBe(200);
    const restore = await as('editor-1', 'POST', `/api/skills/check-spend/restore?project_id=${P}`, {
      json: { version: 2 },
    });
    expect(restore.status).toBe(202);
    expect(restore.body).toMatchObject({ status: 'pending_review', kind: 'skill', key: 'check-spend' });
    const { archive } = await exportAs('editor-1');
    const entries = await readTarGz(archive, TAR_LIMITS, (e) => e.type === 'file');
    const changed = await tarOf(
      Object.fromEntries(
        entries.map((e) => [
          e.path,
          e.path === 'knowledge/spend.md' ? `${e.data.toString('utf8')}More.\n` : e.data.toString('utf8'),
        ]),
      ),
    );
    const proposed = await as('editor-1', 'POST', `/api/projects/${P}/import`, { archive: changed });
    expect(proposed.status).toBe(200);
    expect(proposed.body.proposals).toHaveLength(1);
    const pruned = await as('editor-1', 'POST', `/api/projects/${P}/import?prune=true`, { archive: changed });
    expect(pruned.status).toBe(400);
    expect((await as('editor-1', 'GET', `/api/knowledge/spend?project_id=${P}`)).body.version_number).toBe(3);
    const published = await as('owner-1', 'POST', `/api/projects/${P}/import`, { archive: changed });
    expect(published.body).toMatchObject({ applied: true, proposals: [] });
    const sheet = await as('owner-1', 'GET', `/api/knowledge/spend?project_id=${P}`);
    expect(sheet.body).toMatchObject({ version_number: 4, author: { subject: 'owner-1', via: 'import' } });
  });
});

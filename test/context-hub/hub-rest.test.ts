import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_hub';

describe.each(STORES)('context hub over REST [%s]', (store) => {
  let service: RunningService;
  let url: string;
  beforeAll(async () => {
    service = await startService(store);
    url = service.url;
    expect((await api(`${url}/api/projects`, { method: 'POST', json: { id: P, name: 'Hub' } })).status).toBe(201);
    for (const key of [
      { key: 'kpi', label: 'KPIs' },
      { key: 'kpi.roas', label: 'ROAS', parent: 'kpi', synonyms: ['return on ad spend'] },
      { key: 'surface', label: 'Surfaces' },
      { key: 'surface.checkout', label: 'Checkout', parent: 'surface' },
    ]) {
      expect((await api(`${url}/api/taxonomy/keys`, { method: 'POST', json: { project_id: P, ...key } })).status).toBe(
        201,
      );
    }
  });
  afterAll(async () => service?.close());

  const body = [
    '# Investigate',
    'Intro mentioning [[kpi.roas]] and [[kpi.not_yet]].',
    '',
    '## Steps',
    '1. **Confirm the drop**: compare two weeks.',
    '2. Split by channel. Then look closer',
    '   at the biggest one.',
    '3. Check spend: did it rise?',
    '',
    '## Acceptance',
    '- [ ] Cause named',
    '- Owner set',
  ].join('\n');

  it('creates a skill with steps, acceptance and references parsed from the body, then versions it', async () => {
    const created = await api(`${url}/api/skills`, {
      method: 'POST',
      json: { project_id: P, name: 'investigate-roas', description: 'Why ROAS fell', body_md: body },
    });
    expect(created.status).toBe(201);
    expect(created.body.version).toBe(1);
    expect(created.body.steps).toEqual([
      { index: 1, title: 'Confirm the drop', instruction: '**Confirm the drop**: compare two weeks.' },
      { index: 2, title: 'Split by channel', instruction: 'Split by channel. Then look closer\nat the biggest one.' },
      { index: 3, title: 'Check spend', instruction: 'Check spend: did it rise?' },
    ]);
    expect(created.body.acceptance).toEqual(['Cause named', 'Owner set']);
    expect(created.body.mdm_references).toEqual(['kpi.roas', 'kpi.not_yet']);
    expect(created.body.unresolved_references).toEqual(['kpi.not_yet']);

    const updated = await api(`${url}/api/skills/investigate-roas?project_id=${P}`, {
      method: 'PUT',
      json: { description: 'Why ROAS fell, v2' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.version).toBe(2);
    const v1 = await api(`${url}/api/skills/investigate-roas?project_id=${P}&version=1`);
    expect(v1.body.description).toBe('Why ROAS fell');
    expect(v1.body.current_version).toBe(2);
    const versions = await api(`${url}/api/skills/investigate-roas/versions?project_id=${P}`);
    expect(versions.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
  });

  it('exports SKILL.md and importing that file gives back the same bytes', async () => {
    const exported = await fetch(`${url}/api/skills/investigate-roas/SKILL.md?project_id=${P}`);
    expect(exported.headers.get('content-type')).toContain('text/markdown');
    const file = await exported.text();
    expect(file.startsWith('---\nname: investigate-roas\ndescription: Why ROAS fell, v2\n---\n# Investigate')).toBe(
      true,
    );
    const imported = await api(`${url}/api/skills/import?project_id=${P}`, {
      method: 'POST',
      body: file,
      headers: { 'content-type': 'text/markdown' },
    });
    expect(imported.status).toBe(200);
    expect(imported.body.version).toBe(3);
    const again = await (await fetch(`${url}/api/skills/investigate-roas/SKILL.md?project_id=${P}`)).text();
    expect(Buffer.from(again).equals(Buffer.from(file))).toBe(true);

    const handWritten =
      '---\r\nname: hand-written\r\ndescription: "Quoted: with colon"\r\nlicense: Apache-2.0\r\nmetadata:\r\n  author: ana\r\n  tags: "a b"\r\n---\r\nBody ✓ 😀\r\n1. One\r\n';
    const created = await api(`${url}/api/skills/import?project_id=${P}`, {
      method: 'POST',
      body: handWritten,
      headers: { 'content-type': 'text/markdown' },
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual({ author: 'ana', tags: 'a b' });
    expect(created.body.steps.map((s: { title: string }) => s.title)).toEqual(['One']);
    const back = await (await fetch(`${url}/api/skills/hand-written/SKILL.md?project_id=${P}`)).arrayBuffer();
    expect(Buffer.from(back).equals(Buffer.from(handWritten))).toBe(true);
  });

  it('rejects a SKILL.md without front matter or with a bad name, one entry per violation', async () => {
    const none = await api(`${url}/api/skills/import?project_id=${P}`, {
      method: 'POST',
      body: '# no front matter',
      headers: { 'content-type': 'text/markdown' },
    });
    expect(none.status).toBe(400);
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    const bad = await api(`${url}/api/skills/import?project_id=${P}`, {
      method: 'POST',
      body: '---\nname: Bad Name\n---\nx',
      headers: { 'content-type': 'text/markdown' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'front_matter.description',
      'front_matter.name',
    ]);
  });

  it('validates names and bodies: invalid names, 1 MiB bodies, oversized requests, unknown projects', async () => {
    const invalid = await api(`${url}/api/skills`, {
      method: 'POST',
      json: { project_id: P, name: 'Not_Valid', description: '', body_md: 'x' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.description', 'body.name']);
    const mib = 'a'.repeat(1024 * 1024);
    const big = await api(`${url}/api/knowledge`, {
      method: 'POST',
      json: { project_id: P, title: 'Big sheet', body_md: mib },
    });
    expect(big.status).toBe(201);
    const tooBig = await api(`${url}/api/knowledge`, {
      method: 'POST',
      json: { project_id: P, title: 'Too big', body_md: `${mib}é` },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors[0].path).toBe('body.body_md');
    const huge = await api(`${url}/api/knowledge`, {
      method: 'POST',
      json: { project_id: P, title: 'Huge', body_md: 'a'.repeat(3 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    const unknown = await api(`${url}/api/skills?project_id=proj_nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('project_not_found');
  });

  it('gives ten concurrent writes of one name versions 1..10 with no gaps', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api(`${url}/api/skills`, {
          method: 'POST',
          json: { project_id: P, name: 'concurrent', description: `writer ${i}`, body_md: `1. Step ${i}` },
        }),
      ),
    );
    expect(results.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    expect(results.map((r) => r.body.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const versions = await api(`${url}/api/skills/concurrent/versions?project_id=${P}`);
    expect(versions.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('knowledge: topic_id derived from the title, versions, delete hides it from lists but keeps versions for admins', async () => {
    const created = await api(`${url}/api/knowledge`, {
      method: 'POST',
      json: { project_id: P, title: 'Attribution model & lookback', body_md: 'Thirty days.', owner: 'Analytics' },
    });
    expect(created.status).toBe(201);
    expect(created.body.topic_id).toBe('attribution-model-lookback');
    const v2 = await api(`${url}/api/knowledge`, {
      method: 'POST',
      json: {
        project_id: P,
        topic_id: 'attribution-model-lookback',
        title: 'Attribution model',
        body_md: 'Now 28 days.',
      },
    });
    expect(v2.status).toBe(200);
    expect(v2.body.version_number).toBe(2);
    expect((await api(`${url}/api/knowledge/attribution-model-lookback?project_id=${P}&version=1`)).body.body_md).toBe(
      'Thirty days.',
    );
    expect(
      (await api(`${url}/api/knowledge/attribution-model-lookback?project_id=${P}`, { method: 'DELETE' })).status,
    ).toBe(204);
    const list = await api(`${url}/api/knowledge?project_id=${P}`);
    expect(list.body.knowledge.map((k: { topic_id: string }) => k.topic_id)).not.toContain(
      'attribution-model-lookback',
    );
    // The local operator is an admin: the deleted sheet's history stays readable.
    const versions = await api(`${url}/api/knowledge/attribution-model-lookback/versions?project_id=${P}`);
    expect(versions.body).toMatchObject({ deleted: true });
    expect(versions.body.versions).toHaveLength(2);
    expect(
      (await api(`${url}/api/knowledge/attribution-model-lookback?project_id=${P}`, { method: 'DELETE' })).status,
    ).toBe(404);
  });

  it('taxonomy: parent must exist, a cycle is a 400, the tree nests, deleting a parent with children is a 409', async () => {
    const orphan = await api(`${url}/api/taxonomy/keys`, {
      method: 'POST',
      json: { project_id: P, key: 'channel.email', label: 'Email', parent: 'channel' },
    });
    expect(orphan.status).toBe(400);
    expect(orphan.body.errors[0]).toMatchObject({ path: 'body.parent' });
    expect(orphan.body.errors[0].message).toContain('channel');
    const cycle = await api(`${url}/api/taxonomy/keys/kpi?project_id=${P}`, {
      method: 'PUT',
      json: { parent: 'kpi.roas' },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.code).toBe('business_key_cycle');
    const self = await api(`${url}/api/taxonomy/keys/kpi?project_id=${P}`, { method: 'PUT', json: { parent: 'kpi' } });
    expect(self.status).toBe(400);
    const tree = await api(`${url}/api/taxonomy?project_id=${P}`);
    expect(tree.body.roots.map((r: { key: string }) => r.key)).toEqual(['kpi', 'surface']);
    expect(tree.body.roots[0].children.map((c: { key: string }) => c.key)).toEqual(['kpi.roas']);
    expect((await api(`${url}/api/taxonomy/keys/kpi?project_id=${P}`, { method: 'DELETE' })).status).toBe(409);
    expect((await api(`${url}/api/taxonomy/keys/kpi.nope?project_id=${P}`)).status).toBe(404);
  });

  it('links: unknown key or source is a 400 naming it, a duplicate a 409, and links of deleted objects vanish', async () => {
    const sheet = await api(`${url}/api/knowledge`, {
      method: 'POST',
      json: { project_id: P, title: 'ROAS definition', body_md: 'Revenue over spend.' },
    });
    const link = {
      project_id: P,
      relation_type: 'explains',
      source_type: 'knowledge',
      source_id: sheet.body.id,
      business_key: 'kpi.roas',
    };
    const created = await api(`${url}/api/context/business-links`, { method: 'POST', json: link });
    expect(created.status).toBe(201);
    expect(created.body.source_key).toBe('roas-definition');
    expect((await api(`${url}/api/context/business-links`, { method: 'POST', json: link })).status).toBe(409);
    const bad = await api(`${url}/api/context/business-links`, {
      method: 'POST',
      json: { ...link, source_id: 'kn_missing', business_key: 'kpi.missing' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.business_key',
      'body.source_id',
    ]);
    expect(bad.body.errors.map((e: { message: string }) => e.message).join(' ')).toContain('kpi.missing');
    const list = await api(`${url}/api/context/business-links?project_id=${P}`);
    expect(list.body.links.map((l: { id: string }) => l.id)).toContain(created.body.id);
    await api(`${url}/api/knowledge/roas-definition?project_id=${P}`, { method: 'DELETE' });
    const after = await api(`${url}/api/context/business-links?project_id=${P}`);
    expect(after.body.links.map((l: { id: string }) => l.id)).not.toContain(created.body.id);
    expect(
      (await api(`${url}/api/context/business-links/${created.body.id}?project_id=${P}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect(
      (await api(`${url}/api/context/business-links/${created.body.id}?project_id=${P}`, { method: 'DELETE' })).status,
    ).toBe(404);
  });

  it('GET /api/search answers what search_context does, and validates the query', async () => {
    const found = await api(`${url}/api/search?q=roas&project_id=${P}`);
    expect(found.status).toBe(200);
    expect(found.body.hits.map((h: { key: string }) => h.key)).toContain('investigate-roas');
    const empty = await api(`${url}/api/search?q=%20&project_id=${P}`);
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].path).toBe('query.q');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffLines, splitLines, unifiedDiff } from '../../src/platform/line-diff.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_versions';

const V1 = [
  '# Investigate a ROAS drop',
  'Uses [[kpi.roas]].',
  '',
  '## Steps',
  '1. **Confirm the drop**: compare two weeks.',
  '2. **Split by channel**: find the channel that fell.',
  '3. **Check spend**: did it rise?',
  '4. **Write it up**: one paragraph.',
  '',
  '## Acceptance',
  '- Cause named',
  '- Owner set',
  '',
].join('\n');

// Step 2 and 3 swapped, step 4 reworded, a new step 5, step "Confirm" removed; acceptance and references edited.
const V2 = [
  '# Investigate a ROAS drop',
  'Uses [[kpi.roas]] and [[surface.checkout]].',
  '',
  '## Steps',
  '1. **Check spend**: did it rise?',
  '2. **Split by channel**: find the channel that fell.',
  '3. **Write it up**: two paragraphs, with the chart.',
  '4. **Tell the owner**: post in the channel.',
  '',
  '## Acceptance',
  '- Cause named',
  '- Chart attached',
  '',
].join('\n');

describe('line diff', () => {
  it('rebuilds both texts from its operations and writes diff -u hunks', () => {
    const a = splitLines(V1);
    const b = splitLines(V2);
    const ops = diffLines(a, b);
    expect(ops.filter((o) => o.kind !== 'insert').map((o) => o.line)).toEqual(a);
    expect(ops.filter((o) => o.kind !== 'delete').map((o) => o.line)).toEqual(b);
    expect(unifiedDiff('a\nb\nc\n', 'a\nB\nc', { from: 'x', to: 'y' })).toBe(
      '--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n-c\n+B\n+c\n\\ No newline at end of file\n',
    );
    expect(unifiedDiff('', 'one\n', { from: 'x', to: 'y' })).toBe('--- x\n+++ y\n@@ -0,0 +1 @@\n+one\n');
    expect(unifiedDiff('same\n', 'same\n', { from: 'x', to: 'y' })).toBe('');
  });

  it('keeps a shortest script on long inputs and falls back to a block replace past the edit limit', () => {
    const a = Array.from({ length: 300 }, (_, i) => `line ${i}\n`);
    const b = a.filter((_, i) => i % 7 !== 0).map((l, i) => (i % 11 === 0 ? `changed ${l}` : l));
    const edits = diffLines(a, b).filter((o) => o.kind !== 'equal').length;
    const removed = a.length - a.filter((l) => b.includes(l)).length;
    const added = b.filter((l) => !a.includes(l)).length;
    expect(edits).toBe(removed + added);
    const capped = diffLines(a, b, 10);
    expect(capped.filter((o) => o.kind !== 'insert').map((o) => o.line)).toEqual(a);
    expect(capped.filter((o) => o.kind !== 'delete').map((o) => o.line)).toEqual(b);
  });
});

describe.each(STORES)('diffs and restore of Skills and Knowledge [%s]', (store) => {
  let service: RunningService;
  let url: string;
  beforeAll(async () => {
    service = await startService(store);
    url = service.url;
    expect((await api(`${url}/api/projects`, { method: 'POST', json: { id: P, name: 'Versions' } })).status).toBe(201);
    const skill = { project_id: P, name: 'investigate-roas', description: 'Why ROAS fell', body_md: V1 };
    expect((await api(`${url}/api/skills`, { method: 'POST', json: skill })).status).toBe(201);
    const v2 = await api(`${url}/api/skills/investigate-roas?project_id=${P}`, {
      method: 'PUT',
      json: { body_md: V2, description: 'Why ROAS fell, and what to do' },
    });
    expect(v2.body.version).toBe(2);
  });
  afterAll(async () => service?.close());

  it('diffs two skill versions: unified body diff and the steps added, removed, changed and moved', async () => {
    const res = await api(`${url}/api/skills/investigate-roas/diff?project_id=${P}&from=1&to=2`);
    expect(res.status).toBe(200);
    const diff = res.body;
    expect(diff).toMatchObject({ name: 'investigate-roas', from_version: 1, to_version: 2 });
    expect(diff.unified_diff).toContain('--- skills/investigate-roas/SKILL.md (v1)\n');
    expect(diff.unified_diff).toContain('\n-1. **Confirm the drop**: compare two weeks.\n');
    expect(diff.unified_diff).toContain('\n+4. **Tell the owner**: post in the channel.\n');
    expect(diff.fields).toEqual([{ field: 'description', from: 'Why ROAS fell', to: 'Why ROAS fell, and what to do' }]);
    const byTitle = Object.fromEntries(
      diff.steps.map((s: { title: string; change: string; from_index: number; to_index: number }) => [
        s.title,
        [s.change, s.from_index, s.to_index],
      ]),
    );
    expect(byTitle).toEqual({
      'Confirm the drop': ['removed', 1, null],
      // Swapped with "Split by channel": one of the two is reported as moved.
      'Check spend': ['moved', 3, 1],
      'Write it up': ['changed', 4, 3],
      'Tell the owner': ['added', null, 4],
    });
    expect(diff.acceptance).toEqual({ added: ['Chart attached'], removed: ['Owner set'], reordered: false });
    expect(diff.references).toEqual({ added: ['surface.checkout'], removed: [], reordered: false });

    // Defaults: the current version against the one before it.
    const latest = await api(`${url}/api/skills/investigate-roas/diff?project_id=${P}`);
    expect(latest.body).toEqual(diff);
    const same = await api(`${url}/api/skills/investigate-roas/diff?project_id=${P}&from=2&to=2`);
    expect(same.body).toMatchObject({ unified_diff: '', fields: [], steps: [] });
    const missing = await api(`${url}/api/skills/investigate-roas/diff?project_id=${P}&from=1&to=9`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('skill_version_not_found');
  });

  it('restores a skill version as the next version and leaves history alone', async () => {
    const restored = await api(`${url}/api/skills/investigate-roas/restore?project_id=${P}`, {
      method: 'POST',
      json: { version: 1 },
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ version: 3, current_version: 3, description: 'Why ROAS fell', body_md: V1 });
    expect(restored.body.steps.map((s: { title: string }) => s.title)).toEqual([
      'Confirm the drop',
      'Split by channel',
      'Check spend',
      'Write it up',
    ]);
    const history = await api(`${url}/api/skills/investigate-roas/versions?project_id=${P}`);
    expect(history.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2, 3]);
    const v2 = await api(`${url}/api/skills/investigate-roas?project_id=${P}&version=2`);
    expect(v2.body.body_md).toBe(V2);
    const back = await api(`${url}/api/skills/investigate-roas/diff?project_id=${P}&from=1&to=3`);
    expect(back.body).toMatchObject({ unified_diff: '', fields: [], steps: [] });
    // SKILL.md of the restored version is the file of version 1.
    const file1 = await (await fetch(`${url}/api/skills/investigate-roas/SKILL.md?project_id=${P}&version=1`)).text();
    const file3 = await (await fetch(`${url}/api/skills/investigate-roas/SKILL.md?project_id=${P}`)).text();
    expect(file3).toBe(file1);

    const current = await api(`${url}/api/skills/investigate-roas/restore?project_id=${P}`, {
      method: 'POST',
      json: { version: 3 },
    });
    expect(current.status).toBe(409);
    expect(current.body.code).toBe('version_is_current');
    const none = await api(`${url}/api/skills/investigate-roas/restore?project_id=${P}`, {
      method: 'POST',
      json: { version: 7 },
    });
    expect(none.body.code).toBe('skill_version_not_found');
    const unknown = await api(`${url}/api/skills/no-such-skill/restore?project_id=${P}`, {
      method: 'POST',
      json: { version: 1 },
    });
    expect(unknown.body.code).toBe('skill_not_found');
  });

  it('diffs and restores Knowledge: body, title and owner', async () => {
    const add = await api(`${url}/api/knowledge`, {
      method: 'POST',
      json: { project_id: P, topic_id: 'roas', title: 'ROAS', body_md: 'Revenue / spend.\n', owner: 'Analytics' },
    });
    expect(add.status).toBe(201);
    await api(`${url}/api/knowledge/roas?project_id=${P}`, {
      method: 'PUT',
      json: { title: 'ROAS definition', body_md: 'Revenue / spend.\nAttributed revenue only.\n', owner: null },
    });
    const diff = await api(`${url}/api/knowledge/roas/diff?project_id=${P}`);
    expect(diff.status).toBe(200);
    expect(diff.body).toEqual({
      topic_id: 'roas',
      from_version: 1,
      to_version: 2,
      unified_diff:
        '--- knowledge/roas.md (v1)\n+++ knowledge/roas.md (v2)\n@@ -1 +1,2 @@\n Revenue / spend.\n+Attributed revenue only.\n',
      fields: [
        { field: 'title', from: 'ROAS', to: 'ROAS definition' },
        { field: 'owner', from: 'Analytics', to: null },
      ],
    });
    const restored = await api(`${url}/api/knowledge/roas/restore?project_id=${P}`, {
      method: 'POST',
      json: { version: 1 },
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ version_number: 3, title: 'ROAS', owner: 'Analytics' });
    const history = await api(`${url}/api/knowledge/roas/versions?project_id=${P}`);
    expect(history.body.versions.map((v: { title: string }) => v.title)).toEqual(['ROAS', 'ROAS definition', 'ROAS']);
    const bad = await api(`${url}/api/knowledge/roas/restore?project_id=${P}`, { method: 'POST', json: {} });
    expect(bad.status).toBe(400);
  });

  it('documents the new routes in OpenAPI', async () => {
    const doc = (await api(`${url}/api/openapi.json`)).body;
    for (const path of [
      '/api/skills/{name}/diff',
      '/api/skills/{name}/restore',
      '/api/knowledge/{topic_id}/diff',
      '/api/knowledge/{topic_id}/restore',
    ])
      expect(Object.keys(doc.paths)).toContain(path);
    const diff = doc.paths['/api/skills/{name}/diff'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(diff)).toContain('unified_diff');
  });
});

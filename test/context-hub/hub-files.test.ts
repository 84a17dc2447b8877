import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTarGz, type TarEntry, writeTarGz } from '../../src/platform/tar.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const A = 'proj_files_a';
const B = 'proj_files_b';
const LIMITS = { maxInflatedBytes: 1 << 26, maxEntries: 1000, maxNameBytes: 1024 };

const SKILL_BODY = [
  '# Investigate a ROAS drop',
  'Start from [[kpi.roas]].',
  '',
  '## Steps',
  '1. **Confirm the drop**: compare two weeks.',
  '2. **Split by channel**: find the channel.',
  '',
].join('\n');

// Imported as written: its front matter (comment, key order, license) must survive byte for byte.
const IMPORTED_SKILL = [
  '---',
  '# kept verbatim',
  'name: weekly-review',
  'description: "Weekly review: what moved"',
  'license: Apache-2.0',
  'metadata:',
  '  team: growth',
  '---',
  'Look at [[surface.checkout]] first.',
  '',
  '1. Open the dashboard.',
  '2. Note anything odd.',
  '',
].join('\n');

const files = async (archive: Buffer) =>
  Object.fromEntries(
    (await readTarGz(archive, LIMITS, (e) => e.type === 'file')).map((e) => [e.path, e.data.toString('utf8')]),
  );
const tarOf = (entries: Record<string, string>): Promise<Buffer> =>
  writeTarGz(Object.entries(entries).map(([p, text]): TarEntry => ({ path: p, data: Buffer.from(text, 'utf8') })));

describe('tar.gz of the hub', () => {
  it('writes long paths that GNU tar reads, the same bytes every time, and refuses what inflates too far', async () => {
    const long = `knowledge/${'a'.repeat(96)}.md`;
    const archive = await tarOf({ [long]: 'x\n', 'taxonomy.yaml': 'keys: []\n' });
    expect((await tarOf({ [long]: 'x\n', 'taxonomy.yaml': 'keys: []\n' })).equals(archive)).toBe(true);
    expect(execFileSync('tar', ['-tzf', '-'], { input: archive }).toString()).toBe(`${long}\ntaxonomy.yaml\n`);
    expect(await files(archive)).toEqual({ [long]: 'x\n', 'taxonomy.yaml': 'keys: []\n' });
    const bomb = await tarOf({ 'taxonomy.yaml': ' '.repeat(1 << 20) });
    const small = { maxInflatedBytes: 1 << 16, maxEntries: 10, maxNameBytes: 1024 };
    await expect(readTarGz(bomb, small, () => true)).rejects.toThrow(/inflates to more than/);
  });
});

describe.each(STORES)('context as code: export and import of the hub as files [%s]', (store) => {
  let service: RunningService;
  let url: string;
  const post = (path: string, json: unknown) => api(`${url}${path}`, { method: 'POST', json });
  const exportOf = async (project: string) => {
    const res = await fetch(`${url}/api/projects/${project}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    return Buffer.from(await res.arrayBuffer());
  };
  const importInto = (project: string, archive: Buffer, query = '') =>
    api(`${url}/api/projects/${project}/import${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/gzip' },
      body: new Uint8Array(archive),
    });

  beforeAll(async () => {
    service = await startService(store);
    url = service.url;
    for (const id of [A, B]) expect((await post('/api/projects', { id, name: id })).status).toBe(201);
    for (const key of [
      { key: 'kpi', label: 'KPIs' },
      {
        key: 'kpi.roas',
        label: 'ROAS',
        parent: 'kpi',
        synonyms: ['return on ad spend'],
        description: 'Revenue / spend',
      },
      { key: 'surface', label: 'Surfaces' },
      { key: 'surface.checkout', label: 'Checkout', parent: 'surface' },
    ])
      expect((await post('/api/taxonomy/keys', { project_id: A, ...key })).status).toBe(201);
    const skill = { project_id: A, name: 'investigate-roas', description: 'Why ROAS fell', body_md: SKILL_BODY };
    expect((await post('/api/skills', skill)).status).toBe(201);
    const imported = await api(`${url}/api/skills/import?project_id=${A}`, {
      method: 'POST',
      headers: { 'content-type': 'text/markdown' },
      body: IMPORTED_SKILL,
    });
    expect(imported.status).toBe(201);
    const sheets = [
      { topic_id: 'roas-definition', title: 'ROAS: the definition', body_md: 'Revenue / spend.\n', owner: 'Analytics' },
      { topic_id: 'glossary', title: 'Glossary', body_md: 'No trailing newline' },
    ];
    for (const sheet of sheets) expect((await post('/api/knowledge', { project_id: A, ...sheet })).status).toBe(201);
    for (const link of [
      { relation_type: 'explains', source_type: 'knowledge', source_id: 'roas-definition', business_key: 'kpi.roas' },
      { relation_type: 'uses', source_type: 'skill', source_id: 'investigate-roas', business_key: 'kpi.roas' },
    ])
      expect((await post('/api/context/business-links', { project_id: A, ...link })).status).toBe(201);
  });
  afterAll(async () => service?.close());

  it('exports the Agent Skills layout, knowledge with front matter and taxonomy.yaml', async () => {
    const out = await files(await exportOf(A));
    expect(Object.keys(out)).toEqual([
      'knowledge/glossary.md',
      'knowledge/roas-definition.md',
      'skills/investigate-roas/SKILL.md',
      'skills/weekly-review/SKILL.md',
      'taxonomy.yaml',
    ]);
    expect(out['skills/weekly-review/SKILL.md']).toBe(IMPORTED_SKILL);
    expect(out['skills/investigate-roas/SKILL.md']).toBe(
      `---\nname: investigate-roas\ndescription: Why ROAS fell\n---\n${SKILL_BODY}`,
    );
    expect(out['knowledge/roas-definition.md']).toBe(
      '---\ntitle: "ROAS: the definition"\nowner: Analytics\n---\nRevenue / spend.\n',
    );
    expect(out['knowledge/glossary.md']).toBe('---\ntitle: Glossary\n---\nNo trailing newline');
    expect(out['taxonomy.yaml']).toBe(
      [
        'keys:',
        '  - key: kpi',
        '    label: KPIs',
        '  - key: kpi.roas',
        '    label: ROAS',
        '    description: Revenue / spend',
        '    parent: kpi',
        '    synonyms:',
        '      - return on ad spend',
        '  - key: surface',
        '    label: Surfaces',
        '  - key: surface.checkout',
        '    label: Checkout',
        '    parent: surface',
        'links:',
        '  - knowledge: roas-definition',
        '    relation: explains',
        '    key: kpi.roas',
        '  - skill: investigate-roas',
        '    relation: uses',
        '    key: kpi.roas',
        '',
      ].join('\n'),
    );
  });

  it('importing an export changes nothing; into a new project it gives the same files byte for byte', async () => {
    const archive = await exportOf(A);
    const again = await importInto(A, archive);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      applied: false,
      changes: [],
      unchanged: { skills: 2, knowledge: 2, business_keys: 4, business_links: 2 },
    });
    expect((await api(`${url}/api/skills/investigate-roas?project_id=${A}`)).body.version).toBe(1);

    const into = await importInto(B, archive);
    expect(into.status).toBe(200);
    expect(into.body.applied).toBe(true);
    expect(into.body.changes.map((c: { kind: string; action: string }) => `${c.action} ${c.kind}`).sort()).toEqual(
      [
        ...Array(4).fill('create business_key'),
        ...Array(2).fill('create skill'),
        ...Array(2).fill('create knowledge'),
        ...Array(2).fill('create business_link'),
      ].sort(),
    );
    expect(into.body.changes.find((c: { name: string }) => c.name === 'weekly-review').version).toBe(1);
    const exportedB = await exportOf(B);
    expect(exportedB.equals(archive)).toBe(true);
    const skillB = await api(`${url}/api/skills/weekly-review?project_id=${B}`);
    expect(skillB.body).toMatchObject({ metadata: { team: 'growth' }, unresolved_references: [] });
  });

  it('plans with dry_run, then applies new versions and, with prune, deletions', async () => {
    const out = await files(await exportOf(B));
    out['skills/investigate-roas/SKILL.md'] = out['skills/investigate-roas/SKILL.md']!.replace(
      '2. **Split by channel**',
      '2. **Check spend**: did it rise?\n3. **Split by channel**',
    );
    out['knowledge/new-sheet.md'] = '---\ntitle: New sheet\n---\nBody.\n';
    delete out['knowledge/glossary.md'];
    out['skills/investigate-roas/scripts/run.sh'] = 'echo hi\n';
    const plan = await importInto(B, await tarOf(out), '?dry_run=true&prune=true');
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({
      dry_run: true,
      prune: true,
      applied: false,
      ignored: ['skills/investigate-roas/scripts/run.sh'],
      unchanged: { skills: 1, knowledge: 1, business_keys: 4, business_links: 2 },
    });
    expect(plan.body.changes).toEqual([
      {
        kind: 'skill',
        name: 'investigate-roas',
        action: 'update',
        file: 'skills/investigate-roas/SKILL.md',
        version: null,
      },
      { kind: 'knowledge', name: 'new-sheet', action: 'create', file: 'knowledge/new-sheet.md', version: null },
      { kind: 'knowledge', name: 'glossary', action: 'delete', file: null, version: null },
    ]);
    expect((await api(`${url}/api/knowledge/glossary?project_id=${B}`)).status).toBe(200);
    expect((await api(`${url}/api/skills/investigate-roas?project_id=${B}`)).body.version).toBe(1);

    // Without prune the sheet the folder lacks is kept.
    const kept = await importInto(B, await tarOf(out));
    expect(kept.body.applied).toBe(true);
    expect(kept.body.kept).toEqual({ skills: 0, knowledge: 1, business_keys: 0, business_links: 0 });
    expect(kept.body.changes.map((c: { name: string; version: number }) => [c.name, c.version])).toEqual([
      ['investigate-roas', 2],
      ['new-sheet', 1],
    ]);
    const skill = await api(`${url}/api/skills/investigate-roas?project_id=${B}`);
    expect(skill.body.steps.map((s: { title: string }) => s.title)).toEqual([
      'Confirm the drop',
      'Check spend',
      'Split by channel',
    ]);
    expect((await api(`${url}/api/knowledge/glossary?project_id=${B}`)).status).toBe(200);

    const pruned = await importInto(B, await tarOf(out), '?prune=true');
    expect(pruned.body.changes).toEqual([
      { kind: 'knowledge', name: 'glossary', action: 'delete', file: null, version: null },
    ]);
    // Deleted: gone from lists, its versions readable to admins (as every caller is without auth).
    expect((await api(`${url}/api/knowledge/glossary?project_id=${B}`)).body.deleted).toBe(true);
    expect(await files(await exportOf(B))).toEqual(
      Object.fromEntries(Object.entries(out).filter(([p]) => !p.includes('scripts'))),
    );
  });

  it('refuses a folder with bad files: every problem with its file and line, and nothing changes', async () => {
    const before = await exportOf(A);
    const out = await files(before);
    out['skills/Bad_Name/SKILL.md'] = '---\nname: Bad_Name\ndescription: x\n---\nbody\n';
    out['skills/investigate-roas/SKILL.md'] = `${out['skills/investigate-roas/SKILL.md']}\nSee [[kpi.unknown]].\n`;
    out['knowledge/broken.md'] = '---\ntitle: [unclosed\n---\nbody\n';
    out['knowledge/extra.md'] = '---\ntitle: Fine\ncolour: blue\n---\nbody\n';
    out['taxonomy.yaml'] = out['taxonomy.yaml']!.replace('    parent: surface\n', '    parent: nowhere\n');
    out['skills/new-one/SKILL.md'] = '---\nname: other-name\ndescription: x\n---\nbody\n';
    const res = await importInto(A, await tarOf(out));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('import_invalid');
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'skills/Bad_Name/SKILL.md',
        'skills/Bad_Name/SKILL.md:2',
        'skills/investigate-roas/SKILL.md:12',
        'knowledge/broken.md:3',
        'knowledge/extra.md:3',
        'taxonomy.yaml:12',
        'skills/new-one/SKILL.md:2',
      ]),
    );
    const message = (p: string) => res.body.errors.find((e: { path: string }) => e.path === p).message;
    expect(message('skills/investigate-roas/SKILL.md:12')).toContain('[[kpi.unknown]]');
    expect(message('taxonomy.yaml:12')).toContain('parent nowhere');
    expect(message('skills/new-one/SKILL.md:2')).toContain('differs from its folder');
    expect((await exportOf(A)).equals(before)).toBe(true);

    const garbage = await importInto(A, Buffer.from('not an archive at all, but long enough'.repeat(20)));
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('archive_invalid');
    const json = await api(`${url}/api/projects/${A}/import`, { method: 'POST', json: {} });
    expect(json.body.code).toBe('unsupported_media_type');
  });

  it('reads archives made by tar', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-hubfiles-'));
    try {
      for (const [p, text] of Object.entries(await files(await exportOf(A)))) {
        fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
        fs.writeFileSync(path.join(dir, p), text);
      }
      const archive = execFileSync('tar', ['-czf', '-', '-C', dir, '.']);
      const res = await importInto(A, archive, '?dry_run=1');
      expect(res.status).toBe(200);
      expect(res.body.changes).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with propose, new and changed Skills and Knowledge become proposals; taxonomy changes apply', async () => {
    const out = await files(await exportOf(A));
    out['skills/investigate-roas/SKILL.md'] = `${out['skills/investigate-roas/SKILL.md']}3. **Ask the owner**.\n`;
    out['knowledge/proposed.md'] = '---\ntitle: Proposed sheet\n---\nBody.\n';
    out['taxonomy.yaml'] = out['taxonomy.yaml']!.replace('keys:\n', 'keys:\n  - key: channel\n    label: Channels\n');
    const res = await importInto(A, await tarOf(out), '?propose=true');
    expect(res.status).toBe(200);
    expect(res.body.applied).toBe(true);
    expect(res.body.proposals).toHaveLength(2);
    expect((await api(`${url}/api/taxonomy/keys/channel?project_id=${A}`)).status).toBe(200);
    expect((await api(`${url}/api/skills/investigate-roas?project_id=${A}`)).body.version).toBe(1);
    expect((await api(`${url}/api/knowledge/proposed?project_id=${A}`)).status).toBe(404);
    const pending = await api(`${url}/api/proposals?project_id=${A}&status=pending`);
    expect(pending.body.proposals.map((p: { id: string }) => p.id).sort()).toEqual([...res.body.proposals].sort());
    const both = await importInto(A, await tarOf(out), '?propose=true&prune=true');
    expect(both.status).toBe(400);
    expect(both.body.errors[0].path).toBe('query.prune');
  });
});

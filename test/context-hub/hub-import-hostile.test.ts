import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileProbing } from '../support/health-probe.js';
import { gnuLongNames, gzipBomb, type HostileEntry, tarOf } from '../support/hostile-archives.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_hostile';
const MiB = 1024 * 1024;
/** Whatever an archive holds, an answer stays this small (an archive of long names once drew 246 MiB). */
const ANSWER_BYTES = 64 * 1024;
/** Memory an import may add while it runs (the long-names archive once grew the process to ~2.2 GiB). */
const MEMORY_BYTES = 256 * MiB;

const SKILL = '---\nname: check-spend\ndescription: Check spend first\n---\n1. Open [[kpi.spend]].\n';
const manySheets = (n: number, name: (i: number) => string): HostileEntry[] =>
  Array.from({ length: n }, (_, i) => ({ name: name(i), data: 'x' }));

/** What a hostile body does, one per row: its name, the body, the query, and what must come back. */
type Case = [string, () => Promise<Buffer> | Buffer, string, { code: string; match: RegExp }];

const archiveInvalid = (match: RegExp) => ({ code: 'archive_invalid', match });
const importInvalid = (match: RegExp) => ({ code: 'import_invalid', match });

const CASES: Case[] = [
  // What is not an archive was once read as an empty folder, and prune emptied the hub.
  ['an empty body', () => Buffer.alloc(0), '?prune=true', archiveInvalid(/empty/)],
  ['23 bytes of text', () => Buffer.from('this is not an archive!'), '?prune=true', archiveInvalid(/not gzip/)],
  ['JSON', () => Buffer.from('{"skills": []}'), '?prune=true', archiveInvalid(/not gzip/)],
  ['a PNG', () => Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), '?prune=true', archiveInvalid(/not gzip/)],
  ['gzip of text', () => zlib.gzipSync('hello, this is text and no tar'), '?prune=true', archiveInvalid(/tar/)],
  ['an empty gzip stream', () => zlib.gzipSync(Buffer.alloc(0)), '?prune=true', archiveInvalid(/empty gzip/)],
  [
    'a bare tar (not gzip)',
    () => tarOf([{ name: 'knowledge/x.md', data: '---\ntitle: X\n---\n' }], { gzip: false }),
    '?prune=true',
    archiveInvalid(/not gzip/),
  ],
  // Truncation: in the gzip stream, and a tar cut at an entry's end (no end-of-archive blocks).
  [
    'an archive cut in half',
    async () => {
      const whole = await tarOf(manySheets(50, (i) => `knowledge/s${i}.md`));
      return whole.subarray(0, whole.length >> 1);
    },
    '?prune=true',
    archiveInvalid(/cut short|gzip/),
  ],
  [
    'a tar cut at an entry boundary',
    () => tarOf([{ name: 'knowledge/a.md', data: '---\ntitle: A\n---\n' }], { end: false }),
    '?prune=true',
    archiveInvalid(/end-of-archive/),
  ],
  // Bombs: an archive that inflates without end, a layout file past its bound.
  ['a gzip bomb (300 MiB of zeros)', () => gzipBomb('data/zeros.bin', 300 * MiB), '', archiveInvalid(/inflates/)],
  [
    'a 2 MiB Knowledge file',
    () => tarOf([{ name: 'knowledge/big.md', data: `---\ntitle: Big\n---\n${'a'.repeat(2 * MiB)}` }]),
    '',
    importInvalid(/knowledge\/big\.md.*more than/),
  ],
  // Traversal and links.
  ['a path that climbs out', () => tarOf([{ name: '../../outside.md', data: 'x' }]), '', archiveInvalid(/outside/)],
  ['an absolute path', () => tarOf([{ name: '/etc/knowledge/x.md', data: 'x' }]), '', archiveInvalid(/outside/)],
  [
    'a climb inside the layout',
    () => tarOf([{ name: 'knowledge/../../x.md', data: 'x' }]),
    '',
    archiveInvalid(/outside/),
  ],
  [
    'a symbolic link',
    () => tarOf([{ name: 'knowledge/passwd.md', type: 'symlink', linkname: '/etc/passwd' }]),
    '',
    archiveInvalid(/is a link/),
  ],
  [
    'a hard link',
    () =>
      tarOf([
        { name: 'knowledge/a.md', data: '---\ntitle: A\n---\n' },
        { name: 'knowledge/b.md', type: 'link', linkname: 'knowledge/a.md' },
      ]),
    '',
    archiveInvalid(/is a link/),
  ],
  ['a fifo', () => tarOf([{ name: 'knowledge/pipe.md', type: 'fifo' }]), '', archiveInvalid(/not a file/)],
  // Huge names (GNU long names of 60 KB, each once echoed back in the answer) and pax long names.
  ['1,000 GNU long names of 60 KB', () => gnuLongNames(1000, 60_000), '?dry_run=true', archiveInvalid(/name longer/)],
  [
    'a pax name of 5,000 bytes',
    () => tarOf([{ name: `knowledge/${'p'.repeat(5000)}.md`, data: 'x' }]),
    '',
    archiveInvalid(/name longer/),
  ],
  // Counts.
  [
    '20,001 files',
    () => tarOf(manySheets(20_001, (i) => `other/f${i}`)),
    '?dry_run=true',
    archiveInvalid(/more than 20000 files/),
  ],
  [
    '25,001 folders',
    () => tarOf(Array.from({ length: 25_001 }, (_, i) => ({ name: `d${i}/`, type: 'directory' as const }))),
    '?dry_run=true',
    archiveInvalid(/more than 25000 entries/),
  ],
  // Nothing of the layout: never a prune.
  [
    'no file of the layout, with prune',
    () => tarOf([{ name: 'README.md', data: '# hi\n' }]),
    '?prune=true',
    importInvalid(/no file of the layout/),
  ],
  // YAML aliases (a "billion laughs", an alias to no anchor) once answered 500.
  [
    'a taxonomy.yaml alias bomb',
    () =>
      tarOf([
        {
          name: 'taxonomy.yaml',
          data: [
            'keys:',
            '  - key: kpi',
            '    label: KPIs',
            '    synonyms: &a [x, x, x, x, x, x, x, x, x]',
            '  - key: kpi.b',
            '    label: B',
            '    synonyms: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
            '  - key: kpi.c',
            '    label: C',
            '    synonyms: [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
            '',
          ].join('\n'),
        },
      ]),
    '',
    importInvalid(/taxonomy\.yaml:10 YAML expands aliases/),
  ],
  [
    'a taxonomy.yaml alias to no anchor',
    () => tarOf([{ name: 'taxonomy.yaml', data: 'keys:\n  - key: kpi\n    label: *nowhere\n' }]),
    '',
    importInvalid(/taxonomy\.yaml:3 YAML has an alias to an anchor not set before it \(nowhere\)/),
  ],
  [
    'a Knowledge front matter alias bomb',
    () =>
      tarOf([
        {
          name: 'knowledge/bomb.md',
          data:
            '---\ntitle: &a [x, x, x, x, x, x, x, x, x]\nowner: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n' +
            'x: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n---\nbody\n',
        },
      ]),
    '',
    importInvalid(/knowledge\/bomb\.md:3 YAML expands aliases/),
  ],
  [
    'a SKILL.md front matter alias to no anchor',
    () => tarOf([{ name: 'skills/bad/SKILL.md', data: '---\nname: bad\ndescription: *gone\n---\nbody\n' }]),
    '',
    importInvalid(/skills\/bad\/SKILL\.md:3 YAML has an alias/),
  ],
  // Deep nesting: the YAML composer recurses, and a second stack overflow can end the process.
  [
    'a SKILL.md front matter nested 1,000 levels (2 KB of brackets)',
    () =>
      tarOf([
        {
          name: 'skills/deep/SKILL.md',
          data: `---\nname: deep\ndescription: Deep\nmetadata: ${'['.repeat(1000)}${']'.repeat(1000)}\n---\nbody\n`,
        },
      ]),
    '',
    importInvalid(/skills\/deep\/SKILL\.md:4 front matter: nests deeper than 64 levels/),
  ],
  [
    'a taxonomy.yaml nested 2,000 levels in blocks (read on a worker thread)',
    () =>
      tarOf([
        {
          name: 'taxonomy.yaml',
          data: `keys:\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i + 2)}- `).join('\n')}x\n`,
        },
      ]),
    '',
    importInvalid(/taxonomy\.yaml:\d+ nests deeper than 64 levels/),
  ],
  // Front matter once went unbounded (only the body was bounded).
  [
    'a SKILL.md with 100 KiB of front matter',
    () =>
      tarOf([
        {
          name: 'skills/fat/SKILL.md',
          data: `---\nname: fat\ndescription: Fat\nmetadata:\n  blob: "${'b'.repeat(100 * 1024)}"\n---\nbody\n`,
        },
      ]),
    '',
    importInvalid(/skills\/fat\/SKILL\.md:2 the front matter must be at most 64 KiB/),
  ],
];

/**
 * The hostile-archive suite: every body above is refused with a 4xx problem, leaves the
 * hub exactly as it was (its export byte for byte, its audit log), answers in a few KiB, adds at
 * most MEMORY_BYTES to the process while it runs, and /healthz keeps answering meanwhile.
 */
describe.each(STORES)('hostile archives on POST /api/projects/{id}/import [%s]', (store) => {
  let service: RunningService;
  const exportOf = async () =>
    Buffer.from(await (await fetch(`${service.url}/api/projects/${P}/export`)).arrayBuffer());
  const auditLength = async () => (await api(`${service.url}/api/org/audit?limit=200`)).body.entries.length;

  beforeAll(async () => {
    service = await startService(store);
    const post = (path: string, json: unknown) => api(`${service.url}${path}`, { method: 'POST', json });
    expect((await post('/api/projects', { id: P, name: 'Hostile' })).status).toBe(201);
    expect((await post('/api/taxonomy/keys', { project_id: P, key: 'kpi', label: 'KPIs' })).status).toBe(201);
    expect(
      (await post('/api/taxonomy/keys', { project_id: P, key: 'kpi.spend', label: 'Spend', parent: 'kpi' })).status,
    ).toBe(201);
    const skill = await api(`${service.url}/api/skills/import?project_id=${P}`, {
      method: 'POST',
      headers: { 'content-type': 'text/markdown' },
      body: SKILL,
    });
    expect(skill.status).toBe(201);
    for (const topic_id of ['spend', 'roas'])
      expect(
        (await post('/api/knowledge', { project_id: P, topic_id, title: topic_id, body_md: 'Body.\n' })).status,
      ).toBe(201);
  });
  afterAll(async () => service?.close());

  /** The import, with the process's memory sampled and /healthz asked while it runs. */
  const attempt = async (body: Buffer, query: string) => {
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 5);
    try {
      const probed = await whileProbing(service.url, async () => {
        const res = await fetch(`${service.url}/api/projects/${P}/import${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/gzip' },
          body: new Uint8Array(body),
        });
        return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
      });
      return {
        ...probed.result,
        rssGrowth: peakRss - base.rss,
        heapGrowth: peakHeap - base.heapUsed,
        probes: probed.probes,
        maxDelayMs: probed.maxDelayMs,
        workMs: probed.turns.longestWorkMs,
        durationMs: probed.durationMs,
      };
    } finally {
      clearInterval(sampler);
    }
  };

  it.each(CASES)('%s: refused, nothing changed, bounded', async (_name, make, query, expected) => {
    const body = await make();
    const [before, audited] = [await exportOf(), await auditLength()];
    const answer = await attempt(body, query);
    expect(answer.status, answer.text.slice(0, 500)).toBe(400);
    expect(answer.type).toContain('application/problem+json');
    const problem = JSON.parse(answer.text) as { code: string; errors: { path: string; message: string }[] };
    expect(problem.code).toBe(expected.code);
    const said = problem.errors.map((e) => `${e.path} ${e.message}`).join('\n');
    expect(said).toMatch(expected.match);
    expect(answer.text.length).toBeLessThan(ANSWER_BYTES);
    expect(answer.rssGrowth).toBeLessThan(MEMORY_BYTES);
    expect(answer.heapGrowth).toBeLessThan(MEMORY_BYTES);
    // The loop turned while the archive was read: no turn held the request's own work for more
    // than half of it. A turn counts as the main thread's CPU time less GC pauses
    // (loop-turns.ts): on the wall clock, one GC pause or descheduling on the loaded 2-core CI
    // machine made a 200 ms turn of a 213 ms request (CI of a6c5b56, PostgreSQL).
    if (answer.durationMs > 200) {
      expect(answer.probes).toBeGreaterThan(0);
      expect(answer.workMs, `longest wall-clock turn ${answer.maxDelayMs.toFixed(0)} ms`).toBeLessThan(
        answer.durationMs / 2,
      );
    }
    expect((await exportOf()).equals(before)).toBe(true);
    expect(await auditLength()).toBe(audited);
  });

  it('19,000 ignored files with long names: the answer counts them and names only 20', async () => {
    const name = (i: number) => `attic/${String(i).padStart(5, '0')}-${'z'.repeat(900)}`;
    const body = await tarOf([...manySheets(19_000, name), { name: 'skills/check-spend/SKILL.md', data: SKILL }]);
    const answer = await attempt(body, '?dry_run=true');
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.text.length).toBeLessThan(ANSWER_BYTES);
    const result = JSON.parse(answer.text) as { ignored: string[]; ignored_count: number; changes: unknown[] };
    expect(result.ignored_count).toBe(19_000);
    expect(result.ignored).toHaveLength(20);
    expect(result.ignored[0]).toBe(`${name(0).slice(0, 200)}…`);
    expect(result.changes).toEqual([]);
    expect(answer.rssGrowth).toBeLessThan(MEMORY_BYTES);
  });

  it('deeply nested SKILL.md front matter, sent again and again, is refused and the service lives', async () => {
    // Before, the second of these ended the process: "FATAL ERROR: RegExpCompiler Allocation failed"
    // (a V8 abort, not an exception; reproduced against `context-hub serve`).
    const deep = `---\n${'['.repeat(30_000)}${']'.repeat(30_000)}\n---\nbody\n`;
    const answers: { status: number; body: { errors?: { message: string }[] } }[] = [];
    for (let i = 0; i < 3; i++) {
      answers.push(
        await api(`${service.url}/api/skills/import?project_id=${P}`, {
          method: 'POST',
          headers: { 'content-type': 'text/markdown' },
          body: deep,
        }),
      );
    }
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.errors?.[0]?.message).toMatch(/nests deeper than 64 levels/);
    }
  });

  it('POST /api/skills/import refuses a SKILL.md with 1 MiB of front matter', async () => {
    const fat = `---\nname: check-spend\ndescription: Fat\nmetadata:\n  blob: "${'b'.repeat(MiB)}"\n---\nbody\n`;
    const res = await api(`${service.url}/api/skills/import?project_id=${P}`, {
      method: 'POST',
      headers: { 'content-type': 'text/markdown' },
      body: fat,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'body.front_matter', message: expect.stringMatching(/64 KiB/) });
    expect((await api(`${service.url}/api/skills/check-spend?project_id=${P}`)).body.version).toBe(1);
  });
});

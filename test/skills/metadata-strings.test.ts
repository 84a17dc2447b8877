import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { writeTarGz } from '../../src/platform/tar.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// The Agent Skills format lets SKILL.md metadata hold string values only, and hosts of the Skills
// extension refuse anything else: every write path refuses such a value and names it, while an
// older file's metadata.arguments list (the one exception) still imports, moved into the body.

const P = 'proj_meta';
const BODY = '## Steps\n1. Look.\n';
const BAD_FILE = [
  '---',
  'name: bad-meta',
  'description: Metadata with a number',
  'metadata:',
  '  team: growth',
  '  priority: 3',
  '---',
  BODY,
].join('\n');

type Problem = { path: string; message: string };

describe.each(STORES)('string-only SKILL.md metadata [%s]', (store) => {
  let service: RunningService;
  let client: Client;
  const rest = (method: string, path: string, json?: unknown) => api(`${service.url}${path}`, { method, json });

  beforeAll(async () => {
    service = await startService(store);
    expect((await rest('POST', '/api/projects', { id: P, name: 'Metadata' })).status).toBe(201);
    expect(
      (await rest('POST', '/api/skills', { project_id: P, name: 'fine', description: 'd', body_md: BODY })).status,
    ).toBe(201);
    client = await connectModern(service.url);
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
  });

  it('refuses a non-string value over REST, naming body.metadata.<key>, on create, edit and approval', async () => {
    const created = await rest('POST', '/api/skills', {
      project_id: P,
      name: 'numbers',
      description: 'd',
      body_md: BODY,
      metadata: { team: 'growth', priority: 3, tags: ['a'] },
    });
    expect(created.status).toBe(400);
    expect(created.body.code).toBe('validation_failed');
    const paths = (created.body.errors as Problem[]).map((e) => e.path).sort();
    expect(paths).toEqual(['body.metadata.priority', 'body.metadata.tags']);
    expect((created.body.errors as Problem[])[0]!.message).toContain('string');
    expect((await rest('GET', `/api/skills/numbers?project_id=${P}`)).status).toBe(404);

    const edited = await rest('PUT', `/api/skills/fine?project_id=${P}`, { metadata: { owner: { name: 'x' } } });
    expect(edited.status).toBe(400);
    expect((edited.body.errors as Problem[]).map((e) => e.path)).toEqual(['body.metadata.owner']);

    const approve = await rest('POST', '/api/proposals/prop_0000000000000000/approve', {
      edits: { metadata: { flag: true } },
    });
    expect(approve.status).toBe(400);
    expect((approve.body.errors as Problem[]).map((e) => e.path)).toEqual(['body.edits.metadata.flag']);

    // Strings, and the legacy arguments list, are taken.
    const strings = await rest('PUT', `/api/skills/fine?project_id=${P}`, { metadata: { owner: 'ana' } });
    expect(strings.status).toBe(200);
    expect(strings.body.metadata).toEqual({ owner: 'ana' });
  });

  it('refuses a non-string value in add_skill with an error that names it and says what to send', async () => {
    const result = await client.callTool({
      name: 'add_skill',
      arguments: { project_id: P, name: 'via-mcp', description: 'd', body_md: BODY, metadata: { level: 2 } },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    expect(text).toContain('metadata.level');
    expect(text).toContain('string');
    expect((await rest('GET', `/api/skills/via-mcp?project_id=${P}`)).status).toBe(404);
  });

  it('refuses a SKILL.md upload and names the key', async () => {
    const res = await api(`${service.url}/api/skills/import?project_id=${P}`, {
      method: 'POST',
      headers: { 'content-type': 'text/markdown' },
      body: BAD_FILE,
    });
    expect(res.status).toBe(400);
    expect((res.body.errors as Problem[]).map((e) => e.path)).toEqual(['front_matter.metadata.priority']);
  });

  it('refuses an import archive naming the file and the line of the key, and changes nothing', async () => {
    const legacy =
      '---\nname: legacy-ok\ndescription: Old style\nmetadata:\n  author: ops\n  arguments:\n    - name: channel\n      required: true\n---\n# Legacy\n\n## Steps\n1. Do it.\n';
    const archive = (files: Record<string, string>) =>
      writeTarGz(Object.entries(files).map(([path, text]) => ({ path, data: Buffer.from(text) })));
    const importing = async (files: Record<string, string>) =>
      api(`${service.url}/api/projects/${P}/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/gzip' },
        body: new Uint8Array(await archive(files)),
      });
    const refused = await importing({ 'skills/bad-meta/SKILL.md': BAD_FILE, 'skills/legacy-ok/SKILL.md': legacy });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('import_invalid');
    const problems = refused.body.errors as Problem[];
    expect(problems.map((e) => e.path)).toEqual(['skills/bad-meta/SKILL.md:6']);
    expect(problems[0]!.message).toContain('metadata.priority');
    expect((await rest('GET', `/api/skills/legacy-ok?project_id=${P}`)).status).toBe(404);

    // The old list alone still imports: it moves into the body, the rest of metadata kept.
    const taken = await importing({ 'skills/legacy-ok/SKILL.md': legacy });
    expect(taken.status).toBeLessThan(300);
    const skill = await rest('GET', `/api/skills/legacy-ok?project_id=${P}`);
    expect(skill.status).toBe(200);
    expect(skill.body.metadata).toEqual({ author: 'ops' });
    expect(skill.body.body_md).toContain('## Arguments');
  });
});

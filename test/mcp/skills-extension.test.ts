import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SKILLS } from '../../src/modules/demo/index.js';
import { readTarGz } from '../../src/platform/tar.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';
const TAR_LIMITS = { maxInflatedBytes: 1 << 24, maxEntries: 1000, maxNameBytes: 1024 };

/** A 2025-11-25 client of the v2 SDK (no version pinned: the SDK's default, the backport). */
async function connect2025(baseUrl: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'test-2025', version: '1.0.0' });
  await client.connect(new ModernTransport(new URL(`${baseUrl}/mcp`)));
  return client;
}

/** Lists every entry and reads every file with verification on; any failure throws. */
async function listAndVerify(skills: SkillsClient) {
  const listed = await skills.list();
  expect(listed.invalid).toEqual([]);
  for (const entry of listed.skills) {
    for (const file of entry.resources as { uri: string }[]) {
      const read = await skills.read(entry, file.uri);
      expect(read.verified).toBe(true);
    }
  }
  return listed;
}

async function skillMdBytes(skills: SkillsClient, entry: Skill): Promise<Buffer> {
  const read = await skills.read(entry);
  return Buffer.from(read.bytes);
}

async function errorOf(run: () => Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await run();
  } catch (error) {
    const e = error as { code: number; message: string };
    return { code: e.code, message: e.message };
  }
  throw new Error('expected an error');
}

describe.each(STORES)('Skills over the MCP Skills extension [%s]', (store) => {
  let service: RunningService;
  let client: ModernClient;
  let skills: SkillsClient;
  beforeAll(async () => {
    service = await startService(store, { demo: true });
    client = await connectModern(service.url);
    skills = new SkillsClient(client, { skipInvalid: true });
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
  });

  it('declares the extension and lists every demo Skill, every file verified', async () => {
    expect(skills.supported).toBe(true);
    expect(client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/skills']);
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const listed = await listAndVerify(skills);
    expect(listed.skills.map((s) => s.uri).sort()).toEqual(
      DEMO_SKILLS.map((s) => `skill://${P}/${s.name}/SKILL.md`).sort(),
    );
    expect(listed.skills).toHaveLength(7);
    expect(listed.ttlMs).toBe(0);
    expect(listed.cacheScope).toBe('private');
    for (const entry of listed.skills) {
      expect(entry.frontmatter.metadata === undefined || typeof entry.frontmatter.metadata === 'object').toBe(true);
      expect(await skills.get(entry.uri)).toMatchObject({ skill: entry });
    }
  });

  it('serves the same bytes as the export and the console SKILL.md export', async () => {
    const listed = await skills.list();
    const archive = Buffer.from(await (await fetch(`${service.url}/api/projects/${P}/export`)).arrayBuffer());
    const files = new Map(
      (await readTarGz(archive, TAR_LIMITS, (e) => e.type === 'file')).map((e) => [
        e.path.replace(/^\.?\/?/, ''),
        e.data,
      ]),
    );
    for (const entry of listed.skills) {
      const name = entry.frontmatter.name;
      const served = await skillMdBytes(skills, entry);
      const consoleFile = Buffer.from(
        await (await fetch(`${service.url}/api/skills/${name}/SKILL.md?project_id=${P}`)).arrayBuffer(),
      );
      const exported = [...files.entries()].find(([path]) => path.endsWith(`skills/${name}/SKILL.md`))?.[1];
      expect(exported, `skills/${name}/SKILL.md in the export`).toBeDefined();
      expect(served.equals(consoleFile)).toBe(true);
      expect(served.equals(exported!)).toBe(true);
    }
  });

  it("bundles each Skill's linked Knowledge sheets as references/<topic_id>.md, the export's bytes", async () => {
    const listed = await skills.list();
    const archive = Buffer.from(await (await fetch(`${service.url}/api/projects/${P}/export`)).arrayBuffer());
    const exported = new Map(
      (await readTarGz(archive, TAR_LIMITS, (e) => e.type === 'file')).map((e) => [e.path, e.data]),
    );
    let bundled = 0;
    for (const entry of listed.skills) {
      const files = entry.resources as { uri: string; size: number; digest: string }[];
      const prefix = entry.uri.slice(0, -'SKILL.md'.length);
      const references = files.map((f) => f.uri.slice(prefix.length)).filter((p) => p !== 'SKILL.md');
      expect(references.length).toBeLessThanOrEqual(40);
      for (const path of references) {
        const read = await skills.read(entry, path);
        expect(read.verified).toBe(true);
        const topic = path.slice('references/'.length);
        expect(Buffer.from(read.bytes).equals(exported.get(`knowledge/${topic}`)!), path).toBe(true);
        bundled += 1;
      }
    }
    expect(bundled).toBeGreaterThan(0);
  });

  it('serves resources/directory/read for a Skill folder and its references folder', async () => {
    expect(skills.directoryRead).toBe(true);
    const listed = await skills.list();
    const holder = listed.skills.find((s) => (s.resources as { uri: string }[]).length > 1)!;
    const files = holder.resources as { uri: string; size: number }[];
    const root = holder.uri.slice(0, -'/SKILL.md'.length);
    const top = await skills.readDirectory(root);
    expect(top.cacheScope).toBe('private');
    expect(top.resources.map((r) => [r.name, r.mimeType])).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['references', 'inode/directory'],
    ]);
    expect(top.resources[0]!.size).toBe(files.find((f) => f.uri === holder.uri)!.size);
    const references = await skills.readDirectory(`${root}/references`);
    expect(references.resources.map((r) => [r.uri, r.size])).toEqual(
      files.filter((f) => f.uri !== holder.uri).map((f) => [f.uri, f.size]),
    );
    expect((await errorOf(() => skills.readDirectory(`skill://${P}/no-such-skill`))).code).toBe(-32602);
    expect((await errorOf(() => skills.readDirectory('skill://proj_nowhere/investigate-roas-drop'))).code).toBe(-32602);
  });

  it('works the same for a 2025-11-25 client, without the cache fields', async () => {
    const legacy = await connect2025(service.url);
    try {
      const legacySkills = new SkillsClient(legacy, { skipInvalid: true });
      expect(legacySkills.supported).toBe(true);
      const listed = await listAndVerify(legacySkills);
      expect(listed.skills).toHaveLength(7);
    } finally {
      await legacy.close();
    }
  });

  it('answers -32602 for an unknown Skill, an unknown file, an alias of the project and a bad cursor', async () => {
    const unknown = await errorOf(() => skills.get(`skill://${P}/no-such-skill/SKILL.md`));
    expect(unknown.code).toBe(-32602);
    expect((await errorOf(() => skills.get('skill://default/investigate-roas-drop/SKILL.md'))).code).toBe(-32602);
    expect((await errorOf(() => skills.get('skill://proj_nowhere/investigate-roas-drop/SKILL.md'))).code).toBe(-32602);
    const file = await errorOf(() => client.readResource({ uri: `skill://${P}/investigate-roas-drop/NOPE.md` }));
    expect(file.code).toBe(-32602);
    const cursor = await errorOf(() => skills.list({ cursor: 'bogus' }));
    expect(cursor.code).toBe(-32602);
  });

  it('after a revision only that entry changes, an old entry fails verification, a delete is unknown', async () => {
    const before = await skills.list();
    const name = 'validate-campaign-launch';
    const old = before.skills.find((s) => s.frontmatter.name === name)!;
    const revised = await api(`${service.url}/api/skills/${name}?project_id=${P}`, {
      method: 'PUT',
      json: { body_md: '# Validate a campaign launch\n\n## Steps\n1. **Check naming**: revised.\n' },
    });
    expect(revised.status).toBe(200);
    const after = await listAndVerify(skills);
    const fresh = after.skills.find((s) => s.frontmatter.name === name)!;
    expect(fresh.resources).not.toEqual(old.resources);
    for (const entry of after.skills.filter((s) => s.frontmatter.name !== name)) {
      expect(entry).toEqual(before.skills.find((s) => s.uri === entry.uri));
    }
    const stale = await skills.read(old).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(stale).toBeInstanceOf(SkillVerificationError);
    expect(['size', 'digest']).toContain((stale as SkillVerificationError).reason);

    const restored = await api(`${service.url}/api/skills/${name}/restore?project_id=${P}`, {
      method: 'POST',
      json: { version: 1 },
    });
    expect(restored.status).toBeLessThan(300);
    const back = (await skills.get(old.uri)).skill;
    expect(back.resources).toEqual(old.resources);

    const deleted = await api(`${service.url}/api/skills/${name}?project_id=${P}`, { method: 'DELETE' });
    expect(deleted.status).toBeLessThan(300);
    expect((await errorOf(() => skills.get(old.uri))).code).toBe(-32602);
    expect((await skills.list()).skills).toHaveLength(6);
  });
});

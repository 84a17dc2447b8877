import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// skills/list pages are kept per (granted projects, cursor), tagged with those projects' content
// versions. These prove a kept page never hides a change: a revision, a write past every service,
// and an approved proposal show in the very next listing, on the 2026-07-28 fast path and on a
// 2025-11-25 session's fast path alike; a pending proposal changes nothing.

const P = 'proj_demo';

/** Every entry's URI with its files' digests: what a host compares to decide what to fetch again. */
const digests = (skills: Skill[]) =>
  Object.fromEntries(
    skills.map((s) => [s.uri, (s.resources as { uri: string; digest?: string }[]).map((f) => f.digest)]),
  );

describe.each(STORES)('skills/list page cache [%s]', (store) => {
  let service: RunningService;
  let modern: ModernClient;
  let legacy: ModernClient;
  let clients: { era: string; skills: SkillsClient }[];
  const stats = () => service.app.services.skillBundles.pageCacheStats();

  beforeAll(async () => {
    service = await startService(store, { demo: true });
    modern = await connectModern(service.url);
    // No version pinned: the v2 SDK's default, 2025-11-25, answered on the session's fast path.
    legacy = new ModernClient({ name: 'test-2025', version: '1.0.0' });
    await legacy.connect(new ModernTransport(new URL(`${service.url}/mcp`)));
    clients = [
      { era: '2026-07-28', skills: new SkillsClient(modern, { skipInvalid: true }) },
      { era: '2025-11-25', skills: new SkillsClient(legacy, { skipInvalid: true }) },
    ];
  });
  afterAll(async () => {
    await modern?.close();
    await legacy?.close();
    await service?.close();
  });

  /** The listing both eras give, checked equal to each other. */
  async function listed(): Promise<Skill[]> {
    const [a, b] = await Promise.all(clients.map(async (c) => (await c.skills.list()).skills));
    expect(b).toEqual(a);
    return a!;
  }

  it('answers a repeated listing from the kept page, with the same entries', async () => {
    const first = await listed();
    expect(first).toHaveLength(7);
    const before = stats();
    const again = await listed();
    expect(stats().hits).toBe(before.hits + 2);
    expect(stats().misses).toBe(before.misses);
    expect(again).toEqual(first);
  });

  it('shows a revision and a write past every service in the very next listing', async () => {
    const before = digests(await listed());
    const name = 'validate-campaign-launch';
    const uri = `skill://${P}/${name}/SKILL.md`;
    const revised = await api(`${service.url}/api/skills/${name}?project_id=${P}`, {
      method: 'PUT',
      json: { description: 'Revised while a page was kept.' },
    });
    expect(revised.status).toBe(200);
    const after = await listed();
    expect(digests(after)[uri]).not.toEqual(before[uri]);
    expect(after.find((s) => s.uri === uri)?.frontmatter.description).toBe('Revised while a page was kept.');

    // Plain SQL, as an operator might: the content-version trigger still retires the kept page.
    await service.store.db.query('UPDATE skills SET deleted_at = now() WHERE project_id = $1 AND name = $2', [P, name]);
    const gone = await listed();
    expect(gone.map((s) => s.uri)).not.toContain(uri);
    expect(gone).toHaveLength(6);
    await service.store.db.query('UPDATE skills SET deleted_at = NULL WHERE project_id = $1 AND name = $2', [P, name]);
    expect(await listed()).toEqual(after);
  });

  it('shows an edit of a bundled Knowledge sheet in the very next listing of the Skills that bundle it', async () => {
    const before = await listed();
    const holder = before.find((s) => (s.resources as { uri: string }[]).some((f) => f.uri.includes('/references/')))!;
    const file = (holder.resources as { uri: string; digest: string }[]).find((f) => f.uri.includes('/references/'))!;
    const topic = file.uri.slice(file.uri.lastIndexOf('/') + 1, -'.md'.length);
    const put = await api(`${service.url}/api/knowledge/${topic}?project_id=${P}`, {
      method: 'PUT',
      json: { body_md: 'Rewritten while a page was kept.\n' },
    });
    expect(put.status).toBe(200);
    const after = (await listed()).find((s) => s.uri === holder.uri)!;
    const fresh = (after.resources as { uri: string; digest: string }[]).find((f) => f.uri === file.uri)!;
    expect(fresh.digest).not.toBe(file.digest);
    const read = await clients[0]!.skills.read(after, file.uri);
    expect(Buffer.from(read.bytes).toString('utf8')).toContain('Rewritten while a page was kept.');
  });

  it('changes a digest for an approved proposal only, never for a pending one', async () => {
    const name = 'investigate-roas-drop';
    const uri = `skill://${P}/${name}/SKILL.md`;
    const policy = (mode: string) =>
      api(`${service.url}/api/projects/${P}`, { method: 'PATCH', json: { agent_writes: mode } });
    expect((await policy('review')).status).toBe(200);
    try {
      const before = await listed();
      const proposed = await modern.callTool({
        name: 'add_skill',
        arguments: { project_id: P, name, description: 'Proposed by an agent.', body_md: '## Steps\n1. Look.\n' },
      });
      expect(proposed.isError ?? false).toBe(false);
      const proposalId = (proposed.structuredContent as { data: { status: string; proposal_id: string } }).data;
      expect(proposalId.status).toBe('pending_review');
      // Pending: the same page, the same digests.
      expect(await listed()).toEqual(before);
      const approved = await api(`${service.url}/api/proposals/${proposalId.proposal_id}/approve`, {
        method: 'POST',
        json: {},
      });
      expect(approved.status).toBe(200);
      const after = await listed();
      expect(digests(after)[uri]).not.toEqual(digests(before)[uri]);
      expect(after.find((s) => s.uri === uri)?.frontmatter.description).toBe('Proposed by an agent.');
      for (const entry of after.filter((s) => s.uri !== uri))
        expect(entry).toEqual(before.find((s) => s.uri === entry.uri));
    } finally {
      expect((await policy('publish')).status).toBe(200);
    }
  });
});

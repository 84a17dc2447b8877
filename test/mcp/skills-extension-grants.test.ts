import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdp } from '../support/auth/idp.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, type RunningReplica, type RunningService, startReplica, startService } from '../support/service.js';
import { STORES, TEST_DATABASE_URL } from '../support/stores.js';

const ALPHA = 'proj_skills_alpha';
const BETA = 'proj_skills_beta';

/** The code and message of a failed call, the URI in it replaced (to compare two refusals). */
async function refusal(run: () => Promise<unknown>, uri: string): Promise<{ code: number; message: string }> {
  try {
    await run();
  } catch (error) {
    const e = error as { code: number; message: string };
    return { code: e.code, message: e.message.split(uri).join('<uri>') };
  }
  throw new Error('expected a refusal');
}

async function verifiedUris(skills: SkillsClient): Promise<string[]> {
  const listed = await skills.list();
  expect(listed.invalid).toEqual([]);
  for (const entry of listed.skills) {
    for (const file of entry.resources as { uri: string }[])
      expect((await skills.read(entry, file.uri)).verified).toBe(true);
  }
  return listed.skills.map((s) => s.uri).sort();
}

describe.each(STORES)('Skills extension under oauth grants [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  let owner: string;
  let ann: string;
  const as = (method: string, p: string, json?: unknown) =>
    api(`${service.url}${p}`, { method, headers: { authorization: `Bearer ${owner}` }, json });

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, {
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/no-feed' }),
    });
    owner = await idp.token('owner-1');
    for (const id of [ALPHA, BETA]) {
      expect((await as('POST', '/api/projects', { id, name: id })).status).toBe(201);
      // The same name in both projects: two entries, one per project.
      for (const name of ['shared-check', `${id.slice(12)}-only`]) {
        const body = { project_id: id, name, description: `${name} in ${id}.`, body_md: '## Steps\n1. One.\n' };
        expect((await as('POST', '/api/skills', body)).status).toBe(201);
      }
    }
    const member = await as('POST', '/api/org/members', {
      subject: 'ann',
      role: 'viewer',
      grants: [{ project_id: ALPHA, role: 'viewer' }],
    });
    expect(member.status).toBe(201);
    ann = await idp.token('ann');
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('lists only the granted project; the other project answers exactly as an unknown Skill', async () => {
    const client: ModernClient = await connectModern(service.url, ann);
    const skills = new SkillsClient(client, { skipInvalid: true });
    try {
      expect(await verifiedUris(skills)).toEqual([
        `skill://${ALPHA}/alpha-only/SKILL.md`,
        `skill://${ALPHA}/shared-check/SKILL.md`,
      ]);
      const hidden = `skill://${BETA}/shared-check/SKILL.md`;
      const unknown = `skill://${ALPHA}/no-such-skill/SKILL.md`;
      for (const call of [
        (uri: string) => () => skills.get(uri),
        (uri: string) => () => client.readResource({ uri }),
      ]) {
        const a = await refusal(call(hidden), hidden);
        const b = await refusal(call(unknown), unknown);
        expect(a.code).toBe(-32602);
        expect(a).toEqual(b);
      }

      expect(
        (
          await as('PUT', '/api/org/members/ann/grants', {
            grants: [
              { project_id: ALPHA, role: 'viewer' },
              { project_id: BETA, role: 'viewer' },
            ],
          })
        ).status,
      ).toBe(200);
      expect(await verifiedUris(skills)).toHaveLength(4);
      expect((await skills.get(hidden)).skill.uri).toBe(hidden);
    } finally {
      await client.close();
    }
  });

  it('gives the owner every Skill of every project', async () => {
    const client = await connectModern(service.url, owner);
    try {
      expect(await verifiedUris(new SkillsClient(client, { skipInvalid: true }))).toHaveLength(4);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('Skills extension across replicas [postgres]', () => {
  let service: RunningService;
  let replica: RunningReplica;
  let replicaUrl: string;

  beforeAll(async () => {
    service = await startService('postgres', { demo: true });
    replica = await startReplica(service);
    replicaUrl = replica.url;
  });
  afterAll(async () => {
    await replica?.close();
    await service?.close();
  });

  it('shows a revision made on one replica in the very next listing on the other', async () => {
    const onA = await connectModern(service.url);
    const onB = await connectModern(replicaUrl);
    try {
      const a = new SkillsClient(onA, { skipInvalid: true });
      const b = new SkillsClient(onB, { skipInvalid: true });
      expect(await verifiedUris(a)).toHaveLength(7);
      const before = await a.list();
      const name = 'investigate-roas-drop';
      const revised = await api(`${replicaUrl}/api/skills/${name}?project_id=proj_demo`, {
        method: 'PUT',
        json: { description: 'Revised on the other replica.' },
      });
      expect(revised.status).toBe(200);
      const after = await a.list();
      const old = before.skills.find((s) => s.frontmatter.name === name)!;
      const fresh = after.skills.find((s) => s.frontmatter.name === name)!;
      expect(fresh.resources).not.toEqual(old.resources);
      expect(fresh.frontmatter.description).toBe('Revised on the other replica.');
      expect((await b.list()).skills).toEqual(after.skills);
      expect(await verifiedUris(a)).toHaveLength(7);
      expect(await verifiedUris(b)).toHaveLength(7);
    } finally {
      await onA.close();
      await onB.close();
    }
  });

  it('shows a revision, a restore and a delete on one replica to the other, its pages kept', async () => {
    const onA = await connectModern(service.url);
    const onB = await connectModern(replicaUrl);
    const a = new SkillsClient(onA, { skipInvalid: true });
    const b = new SkillsClient(onB, { skipInvalid: true });
    const name = 'validate-campaign-launch';
    const uri = `skill://proj_demo/${name}/SKILL.md`;
    const filesOf = async (skills: SkillsClient) => (await skills.list()).skills.find((s) => s.uri === uri)?.resources;
    const kept = (app: RunningService['app']) => app.services.skillBundles.pageCacheStats().hits;
    try {
      // Both replicas keep their page: the second listing on each is answered from it.
      const v1 = await filesOf(a);
      expect(v1).toBeDefined();
      expect(await filesOf(b)).toEqual(v1);
      const [hitsA, hitsB] = [kept(service.app), kept(replica.app)];
      expect(await filesOf(a)).toEqual(v1);
      expect(await filesOf(b)).toEqual(v1);
      expect(kept(service.app)).toBe(hitsA + 1);
      expect(kept(replica.app)).toBe(hitsB + 1);

      const revised = await api(`${service.url}/api/skills/${name}?project_id=proj_demo`, {
        method: 'PUT',
        json: { description: 'Revised on the first replica.' },
      });
      expect(revised.status).toBe(200);
      const v2 = await filesOf(b);
      expect(v2).not.toEqual(v1);
      expect(await filesOf(a)).toEqual(v2);
      expect(await verifiedUris(b)).toHaveLength(7);

      const restored = await api(`${replicaUrl}/api/skills/${name}/restore?project_id=proj_demo`, {
        method: 'POST',
        json: { version: 1 },
      });
      expect(restored.status).toBeLessThan(300);
      expect(await filesOf(a)).toEqual(v1);
      expect(await filesOf(b)).toEqual(v1);

      const deleted = await api(`${service.url}/api/skills/${name}?project_id=proj_demo`, { method: 'DELETE' });
      expect(deleted.status).toBeLessThan(300);
      expect(await filesOf(b)).toBeUndefined();
      expect(await verifiedUris(b)).toHaveLength(6);
      expect(await refusal(() => b.get(uri), uri)).toMatchObject({ code: -32602 });
    } finally {
      await onA.close();
      await onB.close();
    }
  });
});

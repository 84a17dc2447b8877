import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacy, connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { TestIdp } from '../support/auth/idp.js';
import { resultCode } from '../support/auth/matrix.js';

// The agent_writes policy, proposals and version authorship, over REST
// and both MCP eras.

const P = 'proj_gov';
const OTHER = 'proj_other';
const SKILL_BODY = (step: string) => `## Steps\n1. Open the dashboard\n2. ${step}\n\n## Acceptance\n- It is done\n`;

type CallResult = {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
};
interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}
const textOf = (r: CallResult) => (r.content as { type: string; text: string }[])[0]!.text;
const dataOf = (r: CallResult) => (r.structuredContent as { data: Record<string, any> }).data;
const metaOf = (r: CallResult) => (r.structuredContent as { meta: Record<string, any> }).meta;

const ERAS = [
  { era: 'modern', client: 'test-modern', connect: (url: string, token: string) => connectModern(url, token) },
  {
    era: 'legacy',
    client: 'test-legacy',
    connect: async (url: string, token: string) => (await connectLegacy(url, token)).client,
  },
] as const;

describe.each(STORES)('governed writes [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  const tokens = new Map<string, string>();
  const as = (sub: string) => ({ authorization: `Bearer ${tokens.get(sub)}` });
  const rest = (
    sub: string,
    path: string,
    init: { method?: string; json?: unknown; body?: string; headers?: object } = {},
  ) => api(`${service.url}${path}`, { ...init, headers: { ...as(sub), ...(init.headers ?? {}) } });
  const setPolicy = async (mode: string) => {
    const answer = await rest('ann', `/api/projects/${P}`, { method: 'PATCH', json: { agent_writes: mode } });
    expect(answer.status).toBe(200);
    expect(answer.body.agent_writes).toBe(mode);
  };
  const call = async (client: AnyClient, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallResult;

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, { env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1' }) });
    tokens.set('owner-1', await idp.token('owner-1'));
    for (const [id, name] of [
      [P, 'Governed'],
      [OTHER, 'Other'],
    ]) {
      expect((await rest('owner-1', '/api/projects', { method: 'POST', json: { id, name } })).status).toBe(201);
    }
    const members = [
      { subject: 'ann', role: 'viewer', grants: [{ project_id: P, role: 'admin' }] },
      { subject: 'ed', role: 'editor', grants: [{ project_id: P, role: 'editor' }] },
      { subject: 'agent', role: 'editor', grants: [{ project_id: P, role: 'editor' }] },
      { subject: 'oscar', role: 'viewer', grants: [{ project_id: OTHER, role: 'admin' }] },
    ];
    for (const m of members) {
      expect((await rest('owner-1', '/api/org/members', { method: 'POST', json: m })).status).toBe(201);
      tokens.set(m.subject, await idp.token(m.subject));
    }
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('agent_writes is readable, settable by a project admin only, and audited', async () => {
    expect((await rest('ed', `/api/projects/${P}`)).body.agent_writes).toBe('publish');
    const refused = await rest('ed', `/api/projects/${P}`, { method: 'PATCH', json: { agent_writes: 'off' } });
    expect(refused.status).toBe(403);
    const bad = await rest('ann', `/api/projects/${P}`, { method: 'PATCH', json: { agent_writes: 'sometimes' } });
    expect(bad.status).toBe(400);
    await setPolicy('review');
    await setPolicy('publish');
    const audit = await rest('owner-1', '/api/org/audit?action=project.agent_writes');
    expect(audit.status).toBe(200);
    const changes = audit.body.entries.filter((e: { target: string }) => e.target === P);
    expect(changes.map((e: { details: unknown }) => e.details)).toEqual([
      { from: 'review', to: 'publish' },
      { from: 'publish', to: 'review' },
    ]);
    expect(changes[0].actor).toMatchObject({ subject: 'ann' });
  });

  it.each(ERAS)('publish: an MCP write ($era) publishes and records mcp, client and request id', async (era) => {
    await setPolicy('publish');
    const client = await era.connect(service.url, tokens.get('agent')!);
    const name = `publish-${era.era}`;
    const added = await call(client, 'add_skill', {
      project_id: P,
      name,
      description: 'Published at once',
      body_md: SKILL_BODY('Check'),
    });
    expect(added.isError).toBeFalsy();
    expect(dataOf(added)).toMatchObject({ status: 'published', name, version_number: 1, proposal_id: null });
    const sheet = await call(client, 'add_knowledge', { project_id: P, topic_id: name, title: 'T', body_md: 'b' });
    expect(dataOf(sheet)).toMatchObject({ status: 'published', version_number: 1 });

    const versions = await rest('ann', `/api/skills/${name}/versions?project_id=${P}`);
    expect(versions.body.versions[0].author).toMatchObject({
      subject: 'agent',
      via: 'mcp',
      client: { name: era.client, version: '1.0.0' },
      proposal_id: null,
    });
    expect(versions.body.versions[0].author.request_id).toEqual(expect.any(String));
    const kv = await rest('ann', `/api/knowledge/${name}/versions?project_id=${P}`);
    expect(kv.body.versions[0].author).toMatchObject({ subject: 'agent', via: 'mcp', client: { name: era.client } });

    // The provenance of a read says which version the agent follows and who wrote it.
    const read = await call(client, 'get_procedure', { project_id: P, name });
    expect(metaOf(read).provenance).toMatchObject({
      version: 1,
      updated_at: expect.any(String),
      author: { subject: 'agent', via: 'mcp', client: { name: era.client, version: '1.0.0' } },
    });
    const readSheet = await call(client, 'get_knowledge', { project_id: P, topic_id: name });
    expect(metaOf(readSheet).provenance).toMatchObject({ version: 1, author: { via: 'mcp' } });
    await client.close();
  });

  it('REST writes record via rest, or console when the console header is sent', async () => {
    await setPolicy('publish');
    const plain = await rest('ed', '/api/skills', {
      method: 'POST',
      json: { project_id: P, name: 'rest-written', description: 'd', body_md: SKILL_BODY('A') },
    });
    expect(plain.status).toBe(201);
    expect(plain.body.author).toMatchObject({ subject: 'ed', via: 'rest', client: null });
    expect(plain.body.author.request_id).toBe(plain.headers.get('x-request-id'));
    const fromConsole = await rest('ed', `/api/skills/rest-written?project_id=${P}`, {
      method: 'PUT',
      json: { description: 'from the console' },
      headers: { 'x-context-hub-client': 'console' },
    });
    expect(fromConsole.status).toBe(200);
    expect(fromConsole.body).toMatchObject({ version: 2, author: { via: 'console' } });
    const sheet = await rest('ed', '/api/knowledge', {
      method: 'POST',
      json: { project_id: P, topic_id: 'rest-sheet', title: 'T', body_md: 'b' },
      headers: { 'x-context-hub-client': 'console' },
    });
    expect(sheet.body.author).toMatchObject({ subject: 'ed', via: 'console' });
    // A SKILL.md file is an import.
    const imported = await rest('ed', `/api/skills/import?project_id=${P}`, {
      method: 'POST',
      headers: { 'content-type': 'text/markdown' },
      body: `---\nname: imported-skill\ndescription: From a file\n---\n${SKILL_BODY('Imported')}`,
    });
    expect(imported.status).toBe(201);
    expect(imported.body.author).toMatchObject({ subject: 'ed', via: 'import', client: null });
    const history = await rest('ed', `/api/skills/rest-written/versions?project_id=${P}`);
    expect(history.body.versions.map((v: { author: { via: string } }) => v.author.via)).toEqual(['rest', 'console']);
  });

  it.each(ERAS)('review: MCP writes ($era) become proposals, whoever the token belongs to', async (era) => {
    await setPolicy('review');
    for (const sub of ['agent', 'ann']) {
      const client = await era.connect(service.url, tokens.get(sub)!);
      const name = `review-${era.era}-${sub}`;
      const added = await call(client, 'add_skill', {
        project_id: P,
        name,
        description: 'Needs review',
        body_md: SKILL_BODY('Review me'),
      });
      expect(added.isError).toBeFalsy();
      const data = dataOf(added);
      expect(data).toMatchObject({ status: 'pending_review', id: null, name, version_number: null });
      expect(data.proposal_id).toMatch(/^prop_[a-f0-9]{16}$/);
      expect(textOf(added)).toContain('pending_review');
      expect(textOf(added)).toContain(data.proposal_id);
      expect(textOf(added)).toContain('get_proposal');
      // Nothing was published.
      expect((await rest('ann', `/api/skills/${name}?project_id=${P}`)).status).toBe(404);

      const sheet = await call(client, 'add_knowledge', { project_id: P, topic_id: name, title: 'T', body_md: 'b' });
      expect(dataOf(sheet)).toMatchObject({ status: 'pending_review', topic_id: name, version_number: null });
      expect(textOf(sheet)).toContain(dataOf(sheet).proposal_id);

      // The author follows the proposal.
      const followed = await call(client, 'get_proposal', { id: data.proposal_id });
      expect(followed.isError).toBeFalsy();
      expect(dataOf(followed)).toMatchObject({
        id: data.proposal_id,
        status: 'pending',
        kind: 'skill',
        name,
        base_version: null,
        author: { subject: sub, via: 'mcp', client: { name: era.client, version: '1.0.0' } },
      });
      expect(dataOf(followed).diff.against_base).toContain('+2. Review me');
      await client.close();
    }
  });

  it('review: a REST write by a non-reviewer is proposed (202); a reviewer publishes directly', async () => {
    await setPolicy('review');
    const proposed = await rest('ed', '/api/skills', {
      method: 'POST',
      json: { project_id: P, name: 'rest-review', description: 'd', body_md: SKILL_BODY('A') },
    });
    expect(proposed.status).toBe(202);
    expect(proposed.body).toMatchObject({ status: 'pending_review', kind: 'skill', key: 'rest-review' });
    const put = await rest('ed', `/api/knowledge/rest-sheet?project_id=${P}`, {
      method: 'PUT',
      json: { title: 'New' },
    });
    expect(put.status).toBe(202);
    expect(put.body).toMatchObject({ status: 'pending_review', kind: 'knowledge', base_version: 1 });
    const direct = await rest('ann', '/api/skills', {
      method: 'POST',
      json: { project_id: P, name: 'rest-review', description: 'd', body_md: SKILL_BODY('A') },
      headers: { 'x-context-hub-client': 'console' },
    });
    expect(direct.status).toBe(201);
    expect(direct.body.author).toMatchObject({ subject: 'ann', via: 'console' });
  });

  it.each(ERAS)('off: MCP writes ($era) refuse with agent_writes_off; people still write over REST', async (era) => {
    await setPolicy('off');
    const client = await era.connect(service.url, tokens.get('agent')!);
    const added = await call(client, 'add_skill', {
      project_id: P,
      name: `off-${era.era}`,
      description: 'd',
      body_md: SKILL_BODY('A'),
    });
    expect(added.isError).toBe(true);
    expect(resultCode(added)).toBe('agent_writes_off');
    expect(textOf(added)).toMatch(/console|REST/);
    const sheet = await call(client, 'add_knowledge', { project_id: P, title: 'Off', body_md: 'b' });
    expect(resultCode(sheet)).toBe('agent_writes_off');
    await client.close();
    const byPerson = await rest('ed', '/api/skills', {
      method: 'POST',
      json: { project_id: P, name: `off-${era.era}`, description: 'd', body_md: SKILL_BODY('A') },
    });
    expect(byPerson.status).toBe(201);
    await setPolicy('publish');
  });

  it('approve (with edits) publishes the next version under the author; reject keeps a comment', async () => {
    await setPolicy('publish');
    const client = await connectModern(service.url, tokens.get('agent')!);
    await call(client, 'add_skill', { project_id: P, name: 'lifecycle', description: 'v1', body_md: SKILL_BODY('A') });
    await setPolicy('review');
    const proposed = dataOf(
      await call(client, 'add_skill', {
        project_id: P,
        name: 'lifecycle',
        description: 'v2',
        body_md: SKILL_BODY('B'),
      }),
    );
    const detail = await rest('ann', `/api/proposals/${proposed.proposal_id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ base_version: 1, current_version: 1, stale: false, status: 'pending' });
    expect(detail.body.diff.against_base).toContain('-2. A\n+2. B');
    expect(detail.body.diff.against_current).toBe(detail.body.diff.against_base);

    const approved = await rest('ann', `/api/proposals/${proposed.proposal_id}/approve`, {
      method: 'POST',
      json: { edits: { description: 'v2, edited by the reviewer' }, comment: 'ok' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decided_by: 'ann', published_version: 2, comment: 'ok' });
    const v2 = await rest('ann', `/api/skills/lifecycle?project_id=${P}`);
    expect(v2.body).toMatchObject({ version: 2, description: 'v2, edited by the reviewer' });
    expect(v2.body.author).toMatchObject({
      subject: 'agent',
      via: 'mcp',
      client: { name: 'test-modern' },
      proposal_id: proposed.proposal_id,
    });
    const again = await rest('ann', `/api/proposals/${proposed.proposal_id}/approve`, { method: 'POST', json: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('proposal_decided');
    const followed = await call(client, 'get_proposal', { id: proposed.proposal_id });
    expect(dataOf(followed)).toMatchObject({ status: 'approved', published_version: 2 });
    expect(textOf(followed)).toContain('approved');

    // A wrong-kind edit is refused.
    const third = dataOf(
      await call(client, 'add_skill', {
        project_id: P,
        name: 'lifecycle',
        description: 'v3',
        body_md: SKILL_BODY('C'),
      }),
    );
    const wrongKind = await rest('ann', `/api/proposals/${third.proposal_id}/approve`, {
      method: 'POST',
      json: { edits: { title: 'not a skill field' } },
    });
    expect(wrongKind.status).toBe(400);
    const rejected = await rest('ann', `/api/proposals/${third.proposal_id}/reject`, {
      method: 'POST',
      json: { comment: 'Step C is wrong' },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', comment: 'Step C is wrong', published_version: null });
    const seen = await call(client, 'get_proposal', { id: third.proposal_id });
    expect(textOf(seen)).toContain('Step C is wrong');
    expect((await rest('ann', `/api/skills/lifecycle?project_id=${P}`)).body.version).toBe(2);
    await client.close();
  });

  it('approving a proposal whose object moved on is 409 proposal_stale unless rebase', async () => {
    await setPolicy('review');
    const client = await connectModern(service.url, tokens.get('agent')!);
    const sheet = dataOf(
      await call(client, 'add_knowledge', { project_id: P, topic_id: 'stale-sheet', title: 'T', body_md: 'one\n' }),
    );
    await rest('ann', `/api/proposals/${sheet.proposal_id}/approve`, { method: 'POST', json: {} });
    const proposal = dataOf(
      await call(client, 'add_knowledge', { project_id: P, topic_id: 'stale-sheet', title: 'T', body_md: 'two\n' }),
    );
    // A reviewer edits directly meanwhile: v2.
    const direct = await rest('ann', `/api/knowledge/stale-sheet?project_id=${P}`, {
      method: 'PUT',
      json: { body_md: 'one, revised\n' },
    });
    expect(direct.status).toBe(200);
    expect(direct.body.version_number).toBe(2);
    const detail = await rest('ann', `/api/proposals/${proposal.proposal_id}`);
    expect(detail.body).toMatchObject({ base_version: 1, current_version: 2, stale: true });
    expect(detail.body.diff.against_base).toContain('-one\n+two');
    expect(detail.body.diff.against_current).toContain('-one, revised\n+two');
    const stale = await rest('ann', `/api/proposals/${proposal.proposal_id}/approve`, { method: 'POST', json: {} });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'proposal_stale' });
    const rebased = await rest('ann', `/api/proposals/${proposal.proposal_id}/approve`, {
      method: 'POST',
      json: { rebase: true },
    });
    expect(rebased.status).toBe(200);
    expect(rebased.body.published_version).toBe(3);
    expect((await rest('ann', `/api/knowledge/stale-sheet?project_id=${P}`)).body).toMatchObject({
      version_number: 3,
      body_md: 'two\n',
    });
    await client.close();
  });

  it('two approvals of one proposal at once publish one version', async () => {
    await setPolicy('publish');
    await rest('ann', '/api/skills', {
      method: 'POST',
      json: { project_id: P, name: 'race', description: 'v1', body_md: SKILL_BODY('A') },
    });
    await setPolicy('review');
    const proposed = await rest('ed', '/api/skills', {
      method: 'POST',
      json: { project_id: P, name: 'race', description: 'v2', body_md: SKILL_BODY('B') },
    });
    const approve = () => rest('ann', `/api/proposals/${proposed.body.proposal_id}/approve`, { method: 'POST' });
    const answers = await Promise.all([approve(), approve(), approve()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(['proposal_decided', 'proposal_stale']).toContain(refused.body.code);
    const versions = await rest('ann', `/api/skills/race/versions?project_id=${P}`);
    expect(versions.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
  });

  it("an author's new proposal for the same object supersedes their pending one; authors can withdraw", async () => {
    await setPolicy('review');
    const client = await connectModern(service.url, tokens.get('agent')!);
    const first = dataOf(
      await call(client, 'add_skill', { project_id: P, name: 'supersede', description: 'a', body_md: SKILL_BODY('A') }),
    );
    const second = await call(client, 'add_skill', {
      project_id: P,
      name: 'supersede',
      description: 'b',
      body_md: SKILL_BODY('B'),
    });
    expect(textOf(second)).toContain(first.proposal_id);
    const old = await rest('ann', `/api/proposals/${first.proposal_id}`);
    expect(old.body).toMatchObject({ status: 'superseded', superseded_by: dataOf(second).proposal_id });
    // Another author's proposal for the same object does not supersede.
    const other = await rest('ed', `/api/skills?project_id=${P}`, {
      method: 'POST',
      json: { project_id: P, name: 'supersede', description: 'c', body_md: SKILL_BODY('C') },
    });
    expect(other.status).toBe(202);
    const pending = await rest('ann', `/api/proposals?project_id=${P}&status=pending&limit=500`);
    const ids = pending.body.proposals
      .filter((p: { name: string }) => p.name === 'supersede')
      .map((p: { id: string }) => p.id);
    expect(ids.sort()).toEqual([dataOf(second).proposal_id, other.body.proposal_id].sort());

    const notMine = await rest('agent', `/api/proposals/${other.body.proposal_id}/withdraw`, { method: 'POST' });
    expect(notMine.status).toBe(404);
    const withdrawn = await rest('ed', `/api/proposals/${other.body.proposal_id}/withdraw`, { method: 'POST' });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.status).toBe('withdrawn');
    await client.close();
  });

  it('a member cannot approve; another project’s admin gets the answer a missing proposal gets', async () => {
    await setPolicy('review');
    const proposed = await rest('ed', '/api/skills', {
      method: 'POST',
      json: { project_id: P, name: 'permissions', description: 'd', body_md: SKILL_BODY('A') },
    });
    const id = proposed.body.proposal_id as string;
    const byMember = await rest('ed', `/api/proposals/${id}/approve`, { method: 'POST', json: {} });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe('role_forbidden');
    const rejectByMember = await rest('ed', `/api/proposals/${id}/reject`, { method: 'POST', json: { comment: 'x' } });
    expect(rejectByMember.status).toBe(403);
    // The author reads their own; another member does not see it.
    expect((await rest('ed', `/api/proposals/${id}`)).status).toBe(200);
    expect((await rest('agent', `/api/proposals/${id}`)).status).toBe(404);

    const missing = 'prop_0000000000000000';
    for (const [verb, method, json] of [
      ['', 'GET', undefined],
      ['/approve', 'POST', {}],
      ['/reject', 'POST', { comment: 'no' }],
    ] as const) {
      const foreign = await rest('oscar', `/api/proposals/${id}${verb}`, { method, json });
      const absent = await rest('oscar', `/api/proposals/${missing}${verb}`, { method, json });
      expect(foreign.status).toBe(404);
      expect(absent.status).toBe(404);
      expect(foreign.body.code).toBe(absent.body.code);
      expect(foreign.body.detail.replace(id, 'X')).toBe(absent.body.detail.replace(missing, 'X'));
    }
    const list = await rest('oscar', `/api/proposals?project_id=${P}`);
    expect(list.status).toBe(403);
    expect(list.body.code).toBe('project_forbidden');
    const client = await connectModern(service.url, tokens.get('oscar')!);
    const viaTool = await call(client, 'get_proposal', { id });
    expect(resultCode(viaTool)).toBe('proposal_not_found');
    await client.close();
    // Still pending: nothing above decided it.
    expect((await rest('ann', `/api/proposals/${id}`)).body.status).toBe('pending');
  });

  it('lists page with a cursor, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: { proposals: { id: string; created_at: string }[]; next_cursor: string | null } } =
        await rest('ann', `/api/proposals?project_id=${P}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.body.proposals.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.proposals.map((p) => p.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    const all = await rest('ann', `/api/proposals?project_id=${P}&limit=500`);
    expect(all.body.next_cursor).toBeNull();
    expect(seen).toEqual(all.body.proposals.map((p: { id: string }) => p.id));
    expect(pages).toBeGreaterThan(2);
    const times = all.body.proposals.map((p: { created_at: string }) => p.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('the pending proposals resource lists them and notifies a subscriber on change', async () => {
    await setPolicy('review');
    const { client } = await connectLegacy(service.url, tokens.get('ann')!);
    const uri = `proposals://${P}/pending`;
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(uri);
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri));
    });
    await client.subscribeResource({ uri });
    await client.ping();
    const proposed = await rest('ed', '/api/knowledge', {
      method: 'POST',
      json: { project_id: P, topic_id: 'notified', title: 'N', body_md: 'n' },
    });
    expect(proposed.status).toBe(202);
    expect(await updated).toBe(uri);
    const read = await client.readResource({ uri });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body.proposals.map((p: { id: string }) => p.id)).toContain(proposed.body.proposal_id);
    expect(body.proposals.every((p: { status: string }) => p.status === 'pending')).toBe(true);
    await client.close();
  });
});

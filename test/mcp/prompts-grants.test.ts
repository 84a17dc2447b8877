import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdp } from '../support/auth/idp.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const ALPHA = 'proj_grant_alpha';
const BETA = 'proj_grant_beta';
const GAMMA = 'proj_grant_gamma';

/** Counts a client's notifications/prompts/list_changed; `reach(n)` resolves once n have arrived. */
class ChangeCount {
  n = 0;
  private waiting: { n: number; resolve: () => void }[] = [];
  heard = () => {
    this.n += 1;
    for (const w of this.waiting.filter((x) => x.n <= this.n)) w.resolve();
    this.waiting = this.waiting.filter((x) => x.n > this.n);
  };
  reach(n: number): Promise<void> {
    return n <= this.n ? Promise.resolve() : new Promise((resolve) => this.waiting.push({ n, resolve }));
  }
}

/**
 * A 2025-era session of the official v1 client as `token`, counting its prompt-list changes, once
 * the server holds its GET stream (a notification sent before would find no stream to travel on).
 */
async function legacySession(base: string, token: string, count: ChangeCount): Promise<V1Client> {
  let opened: () => void = () => undefined;
  const streamOpen = new Promise<void>((resolve) => (opened = resolve));
  const watch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? 'GET') === 'GET' && response.status === 200) opened();
    return response;
  };
  const client = new V1Client({ name: 'prompts-grants', version: '1.0.0' }, { capabilities: {} });
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => count.heard());
  await client.connect(
    new LegacyTransport(new URL(`${base}/mcp`), {
      fetch: watch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  await streamOpen;
  return client;
}

describe.each(STORES)('prompts/list_changed when what a member may see changes [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  let owner: string;
  let ann: string;

  const as = (method: string, path: string, json?: unknown) =>
    api(`${service.url}${path}`, { method, headers: { authorization: `Bearer ${owner}` }, json });

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, {
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/no-feed' }),
    });
    owner = await idp.token('owner-1');
    for (const [id, skill] of [
      [ALPHA, 'alpha-skill'],
      [BETA, 'beta-skill'],
    ] as const) {
      expect((await as('POST', '/api/projects', { id, name: id })).status).toBe(201);
      const body = { project_id: id, name: skill, description: `${id}'s Skill.`, body_md: '## Steps\n1. One.\n' };
      expect((await as('POST', '/api/skills', body)).status).toBe(201);
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

  it('reaches the member’s session and subscription on a grant, a role and a new project, and not on a refusal', async () => {
    const sessionCount = new ChangeCount();
    const modernCount = new ChangeCount();
    const session = await legacySession(service.url, ann, sessionCount);
    const modern: ModernClient = await connectModern(service.url, ann);
    modern.setNotificationHandler('notifications/prompts/list_changed', () => modernCount.heard());
    const subscription = await modern.listen({ promptsListChanged: true });
    const names = async () => (await modern.listPrompts()).prompts.map((p) => p.name).sort();
    const both = async (n: number) => {
      await Promise.all([sessionCount.reach(n), modernCount.reach(n)]);
      return [sessionCount.n, modernCount.n];
    };
    try {
      expect(await names()).toEqual(['alpha-skill']);

      // A grant on a second project: its Skill joins ann's list.
      const grants = [
        { project_id: ALPHA, role: 'viewer' },
        { project_id: BETA, role: 'viewer' },
      ];
      expect((await as('PUT', '/api/org/members/ann/grants', { grants })).status).toBe(200);
      expect(await both(1)).toEqual([1, 1]);
      expect(await names()).toEqual(['alpha-skill', 'beta-skill']);

      // A refused change (a project that does not exist) rolls back and announces nothing: the next
      // change is the only one heard after it (notifications arrive in commit order).
      const refused = await as('PUT', '/api/org/members/ann/grants', {
        grants: [{ project_id: 'proj_nowhere', role: 'viewer' }],
      });
      expect(refused.status).toBe(400);
      expect((await as('PUT', '/api/org/members/ann/grants', { grants: [grants[0]] })).status).toBe(200);
      expect(await both(2)).toEqual([2, 2]);
      expect(await names()).toEqual(['alpha-skill']);

      // An organization role that sees every project.
      expect((await as('PATCH', '/api/org/members/ann', { role: 'admin' })).status).toBe(200);
      expect(await both(3)).toEqual([3, 3]);
      expect(await names()).toEqual(['alpha-skill', 'beta-skill']);

      // A new project: ann (an admin) now has three to choose from.
      expect((await as('POST', '/api/projects', { id: GAMMA, name: 'Gamma' })).status).toBe(201);
      expect(await both(4)).toEqual([4, 4]);
    } finally {
      await subscription.close();
      await modern.close();
      await session.close();
    }
  });
});

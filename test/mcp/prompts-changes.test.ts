import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../../src/app/service-app.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { connectModern, connectSse } from '../support/mcp-clients.js';
import { freePort, runCli, stop, waitReady, type CliProcess } from '../support/process.js';
import { createScratchDatabase } from '../support/scratch-database.js';
import { api, startService, TEST_SECRETS_KEY, type RunningService } from '../support/service.js';
import { STORES, TEST_DATABASE_URL } from '../support/stores.js';

const P = 'proj_changes';

/**
 * A 2025-era session with the official v1 client, and a promise that settles once the server holds
 * its GET stream (the client opens it after initialize; a notification sent before would find no
 * stream to travel on).
 */
async function legacySession(base: string): Promise<{ client: LegacyClient; streamOpen: Promise<void> }> {
  let opened: () => void = () => undefined;
  const streamOpen = new Promise<void>((resolve) => (opened = resolve));
  const watch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? 'GET') === 'GET' && response.status === 200) opened();
    return response;
  };
  const client = new V1Client({ name: 'prompts-changes', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new LegacyTransport(new URL(`${base}/mcp`), { fetch: watch }));
  return { client, streamOpen };
}

/** Resolves on the client's next notifications/prompts/list_changed. */
function nextLegacyChange(client: LegacyClient): Promise<void> {
  return new Promise((resolve) => client.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()));
}

function nextModernChange(client: ModernClient): Promise<void> {
  return new Promise((resolve) => client.setNotificationHandler('notifications/prompts/list_changed', () => resolve()));
}

/** The three eras' clients, each waiting for its next prompt-list change. */
async function listeners(base: string) {
  const session = await legacySession(base);
  await session.streamOpen;
  const sse = await connectSse(base);
  const modern = await connectModern(base);
  const subscription = await modern.listen({ promptsListChanged: true });
  const next = () => ({
    session: nextLegacyChange(session.client),
    sse: nextLegacyChange(sse),
    modern: nextModernChange(modern),
  });
  return {
    next,
    close: async () => {
      await subscription.close();
      await modern.close();
      await sse.close();
      await session.client.close();
    },
  };
}

const heard = async (waiting: Record<string, Promise<void>>) => {
  await Promise.all(Object.values(waiting));
  return Object.keys(waiting).sort();
};

describe.each(STORES)('notifications/prompts/list_changed when Skills change [%s]', (store) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(store);
    expect(
      (await api(`${service.url}/api/projects`, { method: 'POST', json: { id: P, name: 'Changes' } })).status,
    ).toBe(201);
  });
  afterAll(async () => service?.close());

  it('reaches 2025-era sessions, HTTP+SSE connections and 2026-07-28 subscriptions on add, revise, delete', async () => {
    const clients = await listeners(service.url);
    try {
      const skill = { project_id: P, name: 'change-me', description: 'Changes.', body_md: '## Steps\n1. One.\n' };
      let waiting = clients.next();
      expect((await api(`${service.url}/api/skills`, { method: 'POST', json: skill })).status).toBe(201);
      expect(await heard(waiting)).toEqual(['modern', 'session', 'sse']);

      waiting = clients.next();
      const revised = await api(`${service.url}/api/skills/change-me?project_id=${P}`, {
        method: 'PUT',
        json: { body_md: '## Steps\n1. One.\n2. Two.\n' },
      });
      expect(revised.status).toBe(200);
      expect(await heard(waiting)).toEqual(['modern', 'session', 'sse']);

      waiting = clients.next();
      const restored = await api(`${service.url}/api/skills/change-me/restore?project_id=${P}`, {
        method: 'POST',
        json: { version: 1 },
      });
      expect(restored.status).toBe(200);
      expect(await heard(waiting)).toEqual(['modern', 'session', 'sse']);

      waiting = clients.next();
      const deleted = await api(`${service.url}/api/skills/change-me?project_id=${P}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      expect(await heard(waiting)).toEqual(['modern', 'session', 'sse']);
    } finally {
      await clients.close();
    }
  });

  it('reaches them when a reviewed agent write is approved (the version lands then)', async () => {
    const R = 'proj_reviewed';
    expect(
      (await api(`${service.url}/api/projects`, { method: 'POST', json: { id: R, name: 'Reviewed' } })).status,
    ).toBe(201);
    const policy = await api(`${service.url}/api/projects/${R}`, { method: 'PATCH', json: { agent_writes: 'review' } });
    expect(policy.status).toBe(200);
    const agent = await connectModern(service.url);
    const clients = await listeners(service.url);
    try {
      const proposed = await agent.callTool({
        name: 'add_skill',
        arguments: { project_id: R, name: 'reviewed-skill', description: 'Reviewed.', body_md: '## Steps\n1. One.\n' },
      });
      const proposal = (proposed.structuredContent as { data: { proposal_id: string } }).data.proposal_id;
      expect(proposal).toMatch(/^prop_/);
      const waiting = clients.next();
      const approved = await api(`${service.url}/api/proposals/${proposal}/approve`, { method: 'POST', json: {} });
      expect(approved.status).toBe(200);
      expect(await heard(waiting)).toEqual(['modern', 'session', 'sse']);
      expect((await agent.listPrompts()).prompts.map((p) => p.name)).toContain('reviewed-skill');
    } finally {
      await clients.close();
      await agent.close();
    }
  });
});

/**
 * Two service processes on one PostgreSQL: the clients hold their session, connection and
 * subscription on replica A (in this process); the Skill is revised through replica B
 * (`context-hub serve` in a process of its own). The change travels by LISTEN/NOTIFY.
 */
describe.skipIf(!TEST_DATABASE_URL)('prompt-list changes made on another replica', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let app: ServiceApp;
  let a: string;
  let b: string;
  let replicaB: CliProcess | undefined;
  const dataDirs: string[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-prompts-'));
    dataDirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase('ch_prompts');
    const config = loadConfig({
      DATABASE_URL: scratch.url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir(),
      LOG_LEVEL: 'silent',
    });
    app = await createServiceApp({ config, logger: createLogger({ level: 'silent' }) });
    a = await app.listen();
    expect((await api(`${a}/api/projects`, { method: 'POST', json: { id: P, name: 'Changes' } })).status).toBe(201);
    const port = await freePort();
    b = `http://127.0.0.1:${port}`;
    replicaB = runCli(['serve'], {
      DATABASE_URL: scratch.url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      DATA_DIR: dataDir(),
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    await waitReady(b, replicaB);
  });
  afterAll(async () => {
    if (replicaB) await stop(replicaB);
    await app?.close();
    await scratch?.drop();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the 2025-era session, the SSE connection and the 2026-07-28 subscription held by replica A', async () => {
    const clients = await listeners(a);
    try {
      let waiting = clients.next();
      const skill = { project_id: P, name: 'far-away', description: 'Elsewhere.', body_md: '## Steps\n1. One.\n' };
      expect((await api(`${b}/api/skills`, { method: 'POST', json: skill })).status).toBe(201);
      expect(await heard(waiting)).toEqual(['modern', 'session', 'sse']);

      waiting = clients.next();
      const revised = await api(`${b}/api/skills/far-away?project_id=${P}`, {
        method: 'PUT',
        json: { description: 'Revised elsewhere.' },
      });
      expect(revised.status).toBe(200);
      expect(await heard(waiting)).toEqual(['modern', 'session', 'sse']);
      // Replica A lists what replica B wrote.
      const modern = await connectModern(a);
      try {
        const { prompts } = await modern.listPrompts();
        expect(prompts.find((p) => p.name === 'far-away')?.description).toBe('Revised elsewhere.');
      } finally {
        await modern.close();
      }
    } finally {
      await clients.close();
    }
  });
});

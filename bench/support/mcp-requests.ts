// The requests bench:mcp replays: captured from the official clients (the v2 client pinned to
// 2026-07-28, the v1 client for 2025-era sessions) talking to a real server, then turned into load
// templates whose id is replaced per request.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { LoadTemplate } from './load.js';

export interface Captured {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A fetch that records the JSON-RPC requests an official client sends. */
export function recordingFetch(into: Captured[]): typeof fetch {
  return async (input, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      into.push({ headers, body: JSON.parse(init.body) as Record<string, unknown> });
    }
    return fetch(input, init);
  };
}

export function template(
  c: Captured,
  patch: { headers?: Record<string, string | undefined>; body?: Record<string, unknown> } = {},
): LoadTemplate {
  const headers = { ...c.headers };
  for (const [k, v] of Object.entries(patch.headers ?? {})) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  delete headers['content-length'];
  return { headers, body: JSON.stringify({ ...c.body, ...patch.body, id: '__ID__' }) };
}

export const byMethod = (list: Captured[], method: string): Captured => {
  const found = list.find((c) => c.body.method === method);
  if (!found) throw new Error(`the client sent no ${method}`);
  return found;
};

export async function captureModern(
  base: string,
  toolName: string,
  toolArgs: Record<string, unknown>,
): Promise<Captured[]> {
  const captured: Captured[] = [];
  const client = new ModernClient(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(new URL(`${base}/mcp`), { fetch: recordingFetch(captured) }));
  await client.listTools();
  const result = await client.callTool({ name: toolName, arguments: toolArgs });
  if (result.isError) throw new Error(`${toolName} failed: ${JSON.stringify(result.content)}`);
  // skills/list as a host of the Skills extension sends it (servers without it answer an empty list).
  const skills = await new SkillsClient(client).list();
  // Said, so a figure over an empty catalogue (a store the demo was not seeded on) shows as one.
  process.stdout.write(`skills/list answers ${skills.skills.length} skills\n`);
  await client.close();
  return captured;
}

export async function legacySessions(
  base: string,
  count: number,
  toolName: string,
): Promise<{ captured: Captured[]; sessionIds: string[]; close(): Promise<void> }> {
  const captured: Captured[] = [];
  const clients: LegacyClient[] = [];
  const sessionIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const client = new LegacyClient({ name: 'bench', version: '1.0.0' }, { capabilities: {} });
    const transport = new LegacyTransport(new URL(`${base}/mcp`), { fetch: recordingFetch(i === 0 ? captured : []) });
    await client.connect(transport);
    if (i === 0) {
      await client.listTools();
      await client.callTool({ name: toolName, arguments: {} });
    }
    clients.push(client);
    sessionIds.push(transport.sessionId!);
  }
  return { captured, sessionIds, close: async () => void (await Promise.all(clients.map((c) => c.close()))) };
}

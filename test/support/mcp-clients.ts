import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport as LegacySseTransport } from '@modelcontextprotocol/sdk/client/sse.js';

function headersFor(token?: string): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** What a host that renders MCP Apps views declares (ext-apps EXTENSION_ID and RESOURCE_MIME_TYPE). */
export const MCP_APPS_CAPABILITIES = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

export interface ConnectOptions {
  /** Declare MCP Apps support: app-only tools are then listed too (as to a host that renders views). */
  apps?: boolean;
}

const capabilitiesFor = (options: ConnectOptions) => (options.apps ? MCP_APPS_CAPABILITIES : {});

/** A 2026-07-28 client (v2 SDK), negotiating the modern era. */
export async function connectModern(
  baseUrl: string,
  token?: string,
  options: ConnectOptions = {},
): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'test-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: capabilitiesFor(options) },
  );
  await client.connect(new ModernTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: headersFor(token) } }));
  return client;
}

/** A 2025-era client (v1 SDK) with a session. */
export async function connectLegacy(
  baseUrl: string,
  token?: string,
  sessionId?: string,
  options: ConnectOptions = {},
): Promise<{ client: LegacyClient; transport: LegacyTransport }> {
  const client = new LegacyClient(
    { name: 'test-legacy', version: '1.0.0' },
    { capabilities: capabilitiesFor(options) },
  );
  const transport = new LegacyTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: headersFor(token) },
    sessionId,
  });
  await client.connect(transport);
  return { client, transport };
}

/** A 2024-11-05 HTTP+SSE client (v1 SDK). */
export async function connectSse(baseUrl: string, token?: string, options: ConnectOptions = {}): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'test-sse', version: '1.0.0' }, { capabilities: capabilitiesFor(options) });
  const headers = headersFor(token);
  await client.connect(
    new LegacySseTransport(new URL(`${baseUrl}/sse`), {
      requestInit: { headers },
      eventSourceInit: {
        fetch: (url, init) =>
          fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
      },
    }),
  );
  return client;
}

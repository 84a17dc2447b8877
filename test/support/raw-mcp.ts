import http from 'node:http';

export const MCP_ACCEPT = 'application/json, text/event-stream';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The JSON-RPC messages of the answer, from a JSON body or an SSE stream. */
  messages: any[];
}

/** Parses `data:` lines of an SSE body into JSON messages (skipping empty priming events). */
export function sseMessages(text: string): any[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data));
}

/** One POST to /mcp with full control over body and headers. */
export async function rawMcp(baseUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let messages: any[] = [];
  if (type.includes('text/event-stream')) messages = sseMessages(text);
  else if (text) {
    try {
      const parsed = JSON.parse(text);
      messages = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      messages = [];
    }
  }
  return { status: res.status, headers: res.headers, text, messages };
}

/** A 2025-era session opened by hand: returns the headers later requests need. */
export async function openRawSession(
  baseUrl: string,
  protocolVersion = '2025-06-18',
  headers: Record<string, string> = {},
  capabilities: Record<string, unknown> = {},
): Promise<Record<string, string>> {
  const init = await rawMcp(
    baseUrl,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities, clientInfo: { name: 'raw', version: '1' } },
    },
    headers,
  );
  const sessionId = init.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`initialize gave no session: ${init.status} ${init.text}`);
  const sessionHeaders = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  await rawMcp(baseUrl, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders);
  return sessionHeaders;
}

/** A POST whose body the server may refuse before reading it all (413): answers even if the write breaks. */
export function postLarge(
  baseUrl: string,
  path: string,
  bytes: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(path, baseUrl);
  const payload = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${'x'.repeat(bytes)}"}}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: MCP_ACCEPT,
          'content-length': payload.length,
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (err) => reject(err));
    req.end(payload);
  });
}

/** A request through node:http, which (unlike fetch) lets a test set the Host header. */
export function httpRequest(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, baseUrl),
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

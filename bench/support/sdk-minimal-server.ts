// Baseline (a) of bench:mcp (reusable by other benchmarks): a minimal MCP server on the same SDK,
// wired exactly as the @modelcontextprotocol/node README shows for plain node:http: Host/Origin
// guards, then a new McpServer + NodeStreamableHTTPServerTransport (stateless) per request, with
// one trivial tool. Usage: tsx bench/support/sdk-minimal-server.ts [port]; prints `listening <port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
} from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function startSdkMinimalServer(port = 0): Promise<{ port: number; close(): Promise<void> }> {
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const http = createServer(async (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    const server = new McpServer({ name: 'bench-minimal', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes its text', inputSchema: z.object({ text: z.string().optional() }) },
      async ({ text }) => ({
        content: [{ type: 'text', text: text ?? 'ok' }],
      }),
    );
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  return new Promise((resolve) => {
    http.listen(port, '127.0.0.1', () =>
      resolve({
        port: (http.address() as AddressInfo).port,
        close: () => new Promise<void>((r) => http.close(() => r())),
      }),
    );
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { port } = await startSdkMinimalServer(Number(process.argv[2] ?? 0));
  process.stdout.write(`listening ${port}\n`);
}

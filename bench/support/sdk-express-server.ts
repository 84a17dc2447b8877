// Baseline (a) of bench:mcp, second wiring: the @modelcontextprotocol/node README's first usage
// example, Express + Streamable HTTP (createMcpExpressApp from @modelcontextprotocol/express, then a
// new McpServer + NodeStreamableHTTPServerTransport, stateless, per request, with one trivial tool;
// the pre-parsed body passed to handleRequest as the README says). bench/support/sdk-minimal-server.ts
// is the README's plain node:http wiring of the same thing. Usage: tsx
// bench/support/sdk-express-server.ts [port]; prints `listening <port>`.
import type { AddressInfo } from 'node:net';
import { createMcpExpressApp } from '@modelcontextprotocol/express';
import type { Request, Response } from 'express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const app = createMcpExpressApp();

app.post('/mcp', async (req: Request, res: Response) => {
  const server = new McpServer({ name: 'bench-express', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: z.object({ text: z.string().optional() }) },
    async ({ text }) => ({
      content: [{ type: 'text', text: text ?? 'ok' }],
    }),
  );
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});

const listener = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(listener.address() as AddressInfo).port}\n`);
});

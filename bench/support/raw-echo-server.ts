// Baseline (b) of bench:mcp: a raw node:http JSON-RPC echo, the runtime's limit on this machine.
// It reads the body, parses it, and answers {jsonrpc, id, result: {}}: no MCP at all.
// With a result file it answers that result instead (bench:mcp passes our tools/list result, so
// the row shows what node:http alone reaches when every answer is as large as our listing).
// Usage: tsx bench/support/raw-echo-server.ts [port] [result.json]; prints `listening <port>`.
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export function startRawEchoServer(port = 0, result?: Buffer): Promise<{ port: number; close(): Promise<void> }> {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let id: unknown = null;
      try {
        id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown }).id ?? null;
      } catch {
        // answered as id null, like a parse error would be
      }
      if (result) {
        // Head and the three parts leave in one writev, without copying the result per answer.
        const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': head.length + result.length + 1 });
        res.cork();
        res.write(head);
        res.write(result);
        res.end('}');
        return;
      }
      const body = JSON.stringify({ jsonrpc: '2.0', id, result: {} });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
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
  const result = process.argv[3] ? fs.readFileSync(process.argv[3]) : undefined;
  const { port } = await startRawEchoServer(Number(process.argv[2] ?? 0), result);
  process.stdout.write(`listening ${port}\n`);
}

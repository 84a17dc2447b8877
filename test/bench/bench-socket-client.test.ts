// The benchmark's socket load client (bench/support/http1-socket.ts) decides which answers count
// as calls, so its framing and its "result" check are tested here against a real node:http server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Http1Socket } from '../../bench/support/http1-socket.js';

const LARGE = `{"result":{"tools":[${Array.from({ length: 2000 }, (_, i) => `{"name":"t${i}"}`).join(',')}]},"jsonrpc":"2.0","id":1}`;
const ERROR = '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no such tool"}}';
const SSE = 'event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n\n';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      switch (req.url) {
        case '/large':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(LARGE) });
          return void res.end(LARGE);
        case '/sse-split': {
          // Chunked, one byte per chunk: every "result" straddles chunk and read boundaries.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          let i = 0;
          const next = (): void => {
            if (i >= SSE.length) return void res.end();
            res.write(SSE[i++]!);
            setImmediate(next);
          };
          return next();
        }
        case '/error':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ERROR) });
          return void res.end(ERROR);
        case '/cut':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 });
          res.write('{"result":');
          return void setImmediate(() => res.destroy());
        default:
          res.writeHead(404, { 'content-length': 0 });
          return void res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = (path: string) =>
  Buffer.from(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 2\r\n\r\n{}`);

describe('bench socket client', () => {
  it('reads Content-Length and chunked answers on one keep-alive connection and finds "result" across boundaries', async () => {
    const connection = new Http1Socket('127.0.0.1', port);
    try {
      const large = await connection.request(request('/large'));
      expect(large).toMatchObject({ status: 200, hasResult: true });
      expect(large.excerpt).toBe(LARGE.slice(0, 200));
      const sse = await connection.request(request('/sse-split'));
      expect(sse).toEqual({ status: 200, hasResult: true, excerpt: SSE });
      const error = await connection.request(request('/error'));
      expect(error).toMatchObject({ status: 200, hasResult: false });
      const missing = await connection.request(request('/nowhere'));
      expect(missing).toEqual({ status: 404, hasResult: false, excerpt: '' });
      // The same connection served all four.
      expect(connection.isClosed).toBe(false);
    } finally {
      connection.close();
    }
  });

  it('rejects an answer cut off before its length and says the connection is closed', async () => {
    const connection = new Http1Socket('127.0.0.1', port);
    await expect(connection.request(request('/cut'))).rejects.toMatchObject({ code: 'HTTP1_SOCKET' });
    expect(connection.isClosed).toBe(true);
    await expect(connection.request(request('/large'))).rejects.toMatchObject({ code: 'HTTP1_SOCKET' });
  });
});

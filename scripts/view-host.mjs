#!/usr/bin/env node
// `npm run host`: serves the view test host (dist/web/test-host) on loopback so a view can be tried
// without a chat client. Start the service first (`npm start`), then open the printed URL: the page
// calls a tool on the service, embeds the tool's view as a chat host would and hands it the answer.
//   npm run host -- [--port=8100] [--mcp=http://localhost:8000/mcp]
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const port = Number(arg('port', '8100'));
const mcp = arg('mcp', `http://localhost:${process.env.PORT ?? '8000'}/mcp`);
const page = path.resolve(import.meta.dirname, '..', 'dist', 'web', 'test-host', 'index.html');
if (!fs.existsSync(page)) {
  console.error('dist/web/test-host is missing: run `npm run build:web` first');
  process.exit(1);
}
http
  .createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(page));
  })
  .listen(port, '127.0.0.1', () => {
    console.log(`view test host: http://127.0.0.1:${port}/?mcp=${encodeURIComponent(mcp)}`);
  });

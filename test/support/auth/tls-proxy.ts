import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';

/** A self-signed certificate for localhost and 127.0.0.1, made with the openssl CLI at test time. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore', timeout: 30_000 },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A TLS-terminating reverse proxy as deployments put in front of the service: HTTPS on loopback
 * with a certificate made for the test, forwarding to the service over plain HTTP with the
 * original Host and `X-Forwarded-Proto: https` (and, with `prefix`, serving the service under that
 * path and sending `X-Forwarded-Prefix`). Streams both ways, so SSE passes through.
 */
export class TlsProxy {
  /** Set once the service behind it is up (its URL is configured with the proxy's). */
  target: string | undefined;
  readonly cert: string;
  /** undici's fetch trusting this proxy's certificate (and nothing more than the default CAs). */
  readonly fetch: typeof fetch;
  url = '';
  private readonly server: https.Server;
  private readonly agent: Agent;

  private constructor(private readonly prefix: string) {
    const { key, cert } = selfSignedCertificate();
    this.cert = cert;
    this.agent = new Agent({ connect: { ca: cert } });
    const agent = this.agent;
    // Node's own fetch with undici's dispatcher: the SDKs test `instanceof Response` against the
    // global class, which undici's fetch would fail.
    this.fetch = ((input: string | URL | Request, init?: RequestInit) =>
      fetch(input, { ...init, dispatcher: agent } as RequestInit)) as typeof fetch;
    this.server = https.createServer({ key, cert }, (req, res) => this.forward(req, res));
  }

  static async start(options: { prefix?: string } = {}): Promise<TlsProxy> {
    const proxy = new TlsProxy(options.prefix ?? '');
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.url = `https://localhost:${(proxy.server.address() as AddressInfo).port}${proxy.prefix}`;
    return proxy;
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = req.url ?? '/';
    if (!this.target || (this.prefix && !url.startsWith(`${this.prefix}/`))) {
      res.writeHead(502).end();
      return;
    }
    const target = new URL(this.target);
    const headers: http.OutgoingHttpHeaders = { ...req.headers, 'x-forwarded-proto': 'https' };
    if (this.prefix) headers['x-forwarded-prefix'] = this.prefix;
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: url.slice(this.prefix.length),
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.agent.close();
  }
}

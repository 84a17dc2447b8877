import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboundPolicy } from '../../src/platform/outbound/address-policy.js';
import { OutboundError } from '../../src/platform/outbound/outbound-http.js';
import { outboundRequest, readBody } from '../../src/platform/outbound/outbound-request.js';

describe('outbound requests of connectors: pinning and redirects', () => {
  const seen: { url: string; host: string | undefined; authorization: string | undefined }[] = [];
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', host: req.headers.host, authorization: req.headers.authorization });
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/hop') return res.writeHead(302, { location: '/final' }).end();
      if (url.pathname === '/away') return res.writeHead(307, { location: `http://localhost:${port}/final` }).end();
      if (url.pathname === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const allow: OutboundPolicy = { allowPrivate: true, setting: 'OUTBOUND_ALLOW_PRIVATE_NETWORKS' };

  it('connects to the address resolved once, keeping the name for Host', async () => {
    let lookups = 0;
    const policy: OutboundPolicy = {
      ...allow,
      lookup: async () => {
        lookups += 1;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    };
    const res = await outboundRequest(`http://source.example:${port}/x`, { policy, timeoutMs: 2000 });
    expect((await readBody(res)).toString()).toBe('done');
    expect(lookups).toBe(1);
    expect(seen.at(-1)).toMatchObject({ url: '/x', host: `source.example:${port}` });
  });

  it('follows a redirect after judging it; Authorization never follows to another origin', async () => {
    const headers = { authorization: 'Bearer t0ken' };
    const same = await outboundRequest(`http://127.0.0.1:${port}/hop`, { policy: allow, timeoutMs: 2000, headers });
    expect(same).toMatchObject({ status: 200, url: `http://127.0.0.1:${port}/final` });
    expect(seen.at(-1)).toMatchObject({ url: '/final', authorization: 'Bearer t0ken' });
    await readBody(same);
    const away = await outboundRequest(`http://127.0.0.1:${port}/away`, { policy: allow, timeoutMs: 2000, headers });
    expect(away.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ url: '/final', host: `localhost:${port}`, authorization: undefined });
    await readBody(away);
    const loop = await outboundRequest(`http://127.0.0.1:${port}/loop`, { policy: allow, timeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect(loop).toBeInstanceOf(OutboundError);
    expect((loop as Error).message).toBe('more than 5 redirects from 127.0.0.1');
  });

  it('with the defaults a local name is refused before anything is sent', async () => {
    const before = seen.length;
    const strict: OutboundPolicy = { allowPrivate: false, setting: 'OUTBOUND_ALLOW_PRIVATE_NETWORKS' };
    const error = await outboundRequest(`https://localhost:${port}/hop`, { policy: strict, timeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      kind: 'refused',
      message:
        'refused by the outbound policy: localhost resolves to a private address (loopback); ' +
        'set OUTBOUND_ALLOW_PRIVATE_NETWORKS=true for on-premises sources',
    });
    expect(seen.length).toBe(before);
  });
});

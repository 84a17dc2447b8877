import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress, resolvePinned } from '../../src/platform/outbound/address-policy.js';
import { OutboundError, postOutbound } from '../../src/platform/outbound/outbound-http.js';
import { HttpReceiver, WebhookReceiver } from '../support/alert-receivers.js';
import { createProject } from '../support/flows.js';
import { api, type RunningService, startService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { deliveries } from './support.js';

describe('outbound guard: which addresses pass', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['10.0.0.8', 'private'],
    ['172.16.4.1', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::a9fe:a9fe', 'NAT64'],
    ['2002:a9fe:a9fe::', '6to4'],
    ['2001::1', 'Teredo'],
    ['192.0.0.192', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is refused (%s)', (address, kind) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    expect(!verdict.allowed && verdict.reason).toContain(kind);
  });

  it.each([
    ['93.184.215.14', '93.184.215.14'],
    ['2606:4700:4700::1111', '2606:4700:4700::1111'],
    ['::ffff:8.8.8.8', '8.8.8.8'],
  ])('%s passes (connects to %s)', (address, connectTo) => {
    expect(classifyAddress(address)).toMatchObject({ allowed: true, address: connectTo });
  });

  it('a name is refused when any address it resolves to is, whatever the order', async () => {
    const lookup = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    await expect(resolvePinned('mixed.example', { allowPrivate: false, lookup })).rejects.toThrow(
      'refused by the outbound policy: mixed.example resolves to a private address (RFC 1918)',
    );
    await expect(resolvePinned('localhost', { allowPrivate: false })).rejects.toThrow(/loopback/);
    await expect(
      resolvePinned('public.example', {
        allowPrivate: false,
        lookup: async () => [{ address: '93.184.215.14', family: 4 }],
      }),
    ).resolves.toEqual({ address: '93.184.215.14', family: 4 });
  });
});

describe('outbound guard: pinning, redirects, time and size', () => {
  const receiver = new HttpReceiver({ status: 200, body: 'fine' });
  let target: HttpReceiver;
  let big: http.Server;
  let bigUrl = '';
  const allow = { allowPrivate: true, timeoutMs: 1000 };

  beforeAll(async () => {
    await receiver.start();
    target = await new HttpReceiver({ status: 200 }).start();
    big = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 160 && res.write(chunk)) sent += 1;
        if (sent < 160) res.once('drain', pump);
        else res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    bigUrl = `http://127.0.0.1:${(big.address() as AddressInfo).port}/big`;
  });
  afterAll(async () => {
    await receiver.close();
    await target.close();
    big.closeAllConnections();
    await new Promise((r) => big.close(r));
  });

  it('refuses a loopback URL before any byte leaves', async () => {
    const before = receiver.hits.length;
    const error = await postOutbound(
      receiver.url,
      { headers: {}, body: '{}' },
      { allowPrivate: false, timeoutMs: 1000 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundError);
    expect(error).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('127.0.0.1 resolves to a private address (loopback)'),
    });
    expect(receiver.hits.length).toBe(before);
  });

  it('connects to the address it resolved once, keeping the name for Host', async () => {
    const port = new URL(receiver.url).port;
    let lookups = 0;
    const res = await postOutbound(
      `http://receiver.invalid:${port}/hook`,
      { headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      {
        ...allow,
        lookup: async () => {
          lookups += 1;
          return [{ address: '127.0.0.1', family: 4 }];
        },
      },
    );
    expect(res.status).toBe(200);
    expect(lookups).toBe(1);
    expect(receiver.hits.at(-1)!.headers.host).toBe(`receiver.invalid:${port}`);
  });

  it('answers a redirect as it is, without following it', async () => {
    receiver.script = [{ status: 302, headers: { location: target.url } }];
    const res = await postOutbound(receiver.url, { headers: {}, body: '{}' }, allow);
    expect(res.status).toBe(302);
    expect(target.hits).toEqual([]);
  });

  it('gives up on an answer that does not come in time', async () => {
    receiver.script = ['hang'];
    const error = await postOutbound(
      receiver.url,
      { headers: {}, body: '{}' },
      { allowPrivate: true, timeoutMs: 300 },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', message: 'no complete answer within 300 ms' });
  });

  it('reads at most maxResponseBytes of an answer', async () => {
    const res = await postOutbound(bigUrl, { headers: {}, body: '{}' }, { ...allow, maxResponseBytes: 100_000 });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(100_000);
    expect(res.truncated).toBe(true);
  });
});

/** The service without ALERTS_ALLOW_PRIVATE_NETWORKS: internal targets are refused, at create or at send. */
describe.each(STORES)('alerts: SSRF refusals in the service [%s]', (store) => {
  let service: RunningService;
  const receiver = new WebhookReceiver();
  const P = 'proj_ssrf';

  beforeAll(async () => {
    await receiver.start();
    service = await startService(store, { env: { ALERTS_RETRY_BASE_SECONDS: '1' } });
    await createProject(service, P);
  });
  afterAll(async () => {
    await service?.close();
    await receiver.close();
  });

  it.each([
    ['http://hooks.example.com/in', 'must use https'],
    ['https://127.0.0.1:8443/in', 'loopback'],
    ['https://[::1]/in', 'loopback'],
    ['https://[::ffff:7f00:1]/in', 'loopback'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[fd00:ec2::254]/', 'unique-local'],
    ['https://10.1.2.3/in', 'private'],
    ['https://localhost/in', 'this machine'],
    ['https://user:pass@hooks.example.com/in', 'may not carry credentials'],
  ])('refuses %s when it is created', async (url, why) => {
    const res = await api(`${service.url}/api/alerts/destinations`, {
      method: 'POST',
      json: { project_id: P, name: `x${Math.random()}`, kind: 'webhook', secrets: { url } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'body.secrets.url', message: expect.stringContaining(why) });
    expect(JSON.stringify(res.body)).not.toContain('pass@');
  });

  it('refuses, at send time, a name that resolves inside; nothing reaches the receiver', async () => {
    const name = os.hostname();
    const resolved = await dns.promises.lookup(name, { all: true }).catch(() => []);
    const inside = resolved.length > 0 && resolved.some((a) => !classifyAddress(a.address).allowed);
    if (!inside) return; // this machine's name resolves to nothing internal: nothing to show here
    const port = new URL(receiver.url).port;
    const created = await api(`${service.url}/api/alerts/destinations`, {
      method: 'POST',
      json: { project_id: P, name: 'By name', kind: 'slack', secrets: { url: `https://${name}:${port}/hook` } },
    });
    expect(created.status).toBe(201);
    const res = await api(`${service.url}/api/alerts/destinations/${created.body.id}/test`, { method: 'POST' });
    expect(res.body).toMatchObject({
      ok: false,
      http_status: null,
      error: expect.stringContaining(`${name} resolves to`),
    });
    expect(res.body.error).toContain('ALERTS_ALLOW_PRIVATE_NETWORKS');
    expect(receiver.hits).toEqual([]);
    const [d] = await deliveries(service, P, { destination_id: created.body.id });
    expect(d).toMatchObject({ status: 'failed', attempt_count: 1 });
  });
});

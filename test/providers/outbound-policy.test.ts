import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/platform/outbound/address-policy.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { awaitRun, createProject } from '../support/flows.js';

const P = 'proj_outbound';

/** This machine's own name, when it resolves to an internal address (the case a resolver decides). */
const NAME = os.hostname();
const resolved = await dns.promises.lookup(NAME, { all: true }).catch(() => []);
const NAME_IS_INSIDE = resolved.length > 0 && resolved.some((a) => !classifyAddress(a.address).allowed);

const refusal = (host: string, kind: string) =>
  `refused by the outbound policy: ${host} resolves to a private address (${kind}); ` +
  'set OUTBOUND_ALLOW_PRIVATE_NETWORKS=true for on-premises sources';

/** A loopback listener that counts every connection made to it (and closes it unanswered). */
async function countingListener(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const mapping = { date: 'day', campaign_id: 'campaign', spend: 'spend' };
const defaults = { channel: 'search', currency: 'EUR' };

/** What each provider needs to reach `host:port`, as its config and secrets. */
function targetOf(provider: string, host: string, port: number) {
  if (provider === 'csv') return { config: { url: `https://${host}:${port}/export.csv`, mapping, defaults } };
  if (provider === 'http_json')
    return {
      config: {
        url: `https://${host}:${port}/v1/stats`,
        token_url: `https://${host}:${port}/oauth/token`,
        grant_type: 'client_credentials',
        mapping,
        defaults,
      },
      secrets: { client_id: 'id', client_secret: 'client-secret-value' },
    };
  return {
    config: { query: 'SELECT * FROM t WHERE day BETWEEN $1 AND $2', mapping, defaults },
    secrets: { connection_string: `postgres://reader:pw-value@${host}:${port}/warehouse` },
  };
}

describe.each(STORES)('the outbound policy with its defaults [%s]', (store) => {
  let service: RunningService;
  let listener: Awaited<ReturnType<typeof countingListener>>;
  let closed = 0;

  const create = (ref: string, provider: string, body: { config: unknown; secrets?: unknown }) =>
    api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider, connection_ref_id: ref, ...body },
    });
  const verify = (ref: string, provider: string) =>
    api(`${service.url}/api/credentials/verify`, {
      method: 'POST',
      json: { project_id: P, provider, connection_ref_id: ref },
    });
  const run = async (ref: string, provider: string) => {
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name: `run ${ref}`, connection_ref_id: ref, provider, cadence: 'manual' },
      },
    });
    expect(ds.status).toBe(200);
    const queued = await api(`${service.url}/api/flows/${ds.body.datastream.id}/run`, { method: 'POST' });
    return awaitRun(service, P, queued.body.id, (r) => r.status === 'failed' || r.status === 'succeeded');
  };

  beforeAll(async () => {
    listener = await countingListener();
    closed = await closedPort();
    service = await startService(store);
    await createProject(service, P, 'EUR');
  });
  afterAll(async () => {
    await service?.close();
    await listener?.close();
  });

  it.each([
    [
      'csv',
      'config.url',
      { url: 'https://127.0.0.1:8443/x.csv', mapping, defaults },
      undefined,
      '127.0.0.1',
      'loopback',
    ],
    [
      'csv',
      'config.url',
      { url: 'https://169.254.169.254/latest', mapping, defaults },
      undefined,
      '169.254.169.254',
      'link-local, where cloud metadata services answer',
    ],
    [
      'csv',
      'config.url',
      { url: 'https://[fd00:ec2::254]/x', mapping, defaults },
      undefined,
      'fd00:ec2::254',
      'unique-local IPv6',
    ],
    ['csv', 'config.url', { url: 'https://localhost/x.csv', mapping, defaults }, undefined, 'localhost', 'loopback'],
    [
      'http_json',
      'config.token_url',
      {
        url: 'https://api.example.com/v1',
        token_url: 'https://[::1]/token',
        grant_type: 'client_credentials',
        mapping,
        defaults,
      },
      { client_id: 'a', client_secret: 'b' },
      '::1',
      'loopback',
    ],
    [
      'postgres',
      'secrets.connection_string',
      { query: 'SELECT $1, $2', mapping, defaults },
      { connection_string: 'postgres://u:very-secret-pw@10.1.2.3/db' },
      '10.1.2.3',
      'RFC 1918',
    ],
  ])(
    'refuses a %s connection to %s when it is created, naming the field',
    async (provider, field, config, secrets, host, kind) => {
      const res = await create(`static-${Math.random().toString(36).slice(2, 8)}`, provider, { config, secrets });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: field, message: refusal(host, kind) }]);
      expect(JSON.stringify(res.body)).not.toContain('very-secret-pw');
    },
  );

  it('refuses a Nango connection when NANGO_URL is not set, and Nango for a provider that cannot use it', async () => {
    const nango = { provider_config_key: 'google-ads' };
    const res = await create('nango-unset', 'http_json', {
      config: { url: 'https://api.example.com/v1', nango, mapping, defaults },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: 'config.nango', message: 'set NANGO_URL and NANGO_SECRET_KEY to take credentials from Nango' },
    ]);
    const csv = await create('nango-csv', 'csv', { config: { url: 'https://x.example/a.csv', nango, mapping } });
    expect(csv.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'config.nango', message: 'provider csv cannot take its credentials from Nango' },
      ]),
    );
  });

  it('refuses plain http when it is created', async () => {
    const res = await create('plain', 'csv', {
      config: { url: 'http://exports.example.com/a.csv', mapping, defaults },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        path: 'config.url',
        message:
          'refused by the outbound policy: exports.example.com is plain http; use https, or set ' +
          'OUTBOUND_ALLOW_PRIVATE_NETWORKS=true for on-premises sources',
      },
    ]);
  });

  it.runIf(NAME_IS_INSIDE).each(['csv', 'http_json', 'postgres'])(
    '%s: a name that resolves inside is refused at verify and run, the same for an open and a closed port, and nothing arrives',
    async (provider) => {
      const open = `${provider}-open`;
      const shut = `${provider}-closed`;
      expect((await create(open, provider, targetOf(provider, NAME, listener.port))).status).toBe(200);
      expect((await create(shut, provider, targetOf(provider, NAME, closed))).status).toBe(200);
      const expected = refusal(NAME, 'loopback');
      const a = await verify(open, provider);
      const b = await verify(shut, provider);
      expect(a.status).toBe(200);
      expect(a.body.status).toBe('error');
      const reasons = (body: { token_check: { reason: string }; connectivity: { reason: string } }) =>
        [body.token_check.reason, body.connectivity.reason].filter((r) => r.startsWith('refused'));
      expect(reasons(a.body)).toEqual([expected]);
      // Everything but the timings is the same: nothing tells whether something listens there.
      const strip = (body: Record<string, { ms: number }>) =>
        JSON.stringify({
          ...body,
          token_check: { ...body.token_check, ms: 0 },
          connectivity: { ...body.connectivity, ms: 0 },
        });
      expect(strip(a.body)).toBe(strip(b.body));
      const runOpen = await run(open, provider);
      const runShut = await run(shut, provider);
      expect(runOpen).toMatchObject({ status: 'failed', error: expected });
      expect(runShut).toMatchObject({ status: 'failed', error: expected });
      const list = await api(`${service.url}/api/credentials/list?project_id=${P}&limit=200`);
      const card = list.body.connections.find((c: { connection_ref_id: string }) => c.connection_ref_id === open);
      expect(card.outbound_refusal).toBe(expected);
      expect(listener.connections()).toBe(0);
    },
  );
});

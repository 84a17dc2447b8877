import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.js';

/** What proxy-addr (Fastify's trustProxy) means by its range names, so both judge a peer alike. */
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/** TRUSTED_PROXIES as a predicate on a socket's peer address (entries were validated by loadConfig). */
export function trustedPeer(entries: readonly string[]): (address: string | undefined) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [net, bits, family] of named) list.addSubnet(net, bits, family);
      continue;
    }
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (!address) return false;
    // A dual-stack listener reports IPv4 peers as IPv4-mapped IPv6 (::ffff:127.0.0.1).
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    return list.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The last value of a header a chain of proxies may have appended to (the nearest proxy's). */
function lastValue(header: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(header) ? header.join(',') : header;
  if (joined === undefined) return undefined;
  const value = joined.slice(joined.lastIndexOf(',') + 1).trim();
  return value === '' ? undefined : value;
}

const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
const PREFIX = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+\/?$/;

export interface PublicUrls {
  /** The origin and path prefix clients reach the service at, without a trailing slash. */
  base(req: IncomingMessage): string;
  /** Just the path prefix ('' at the root): for links the client resolves against its own URL. */
  pathPrefix(req: IncomingMessage): string;
  /**
   * The origin the client reached, as received (a trusted proxy's X-Forwarded-Proto/-Host, else the
   * socket and the Host header), whatever PUBLIC_BASE_URL says: the origin of a page this service served.
   */
  origin(req: IncomingMessage): string;
}

/**
 * Every URL the service advertises (RFC 9728 documents, WWW-Authenticate, the SSE endpoint, the
 * OpenAPI server) comes from here. PUBLIC_BASE_URL wins; else a peer in TRUSTED_PROXIES is
 * believed for X-Forwarded-Proto/-Host/-Prefix (the last value: the nearest proxy's); else the
 * request as received (its Host header, which Host validation already vetted).
 */
export function createPublicUrls(
  config: Pick<Config, 'publicBaseUrl' | 'trustedProxies' | 'host' | 'port'>,
): PublicUrls {
  const trusted = trustedPeer(config.trustedProxies);
  const forwarded = (req: IncomingMessage) => {
    if (!trusted(req.socket.remoteAddress)) return undefined;
    const proto = lastValue(req.headers['x-forwarded-proto'])?.toLowerCase();
    const host = lastValue(req.headers['x-forwarded-host']);
    const prefix = lastValue(req.headers['x-forwarded-prefix']);
    return {
      proto: proto === 'http' || proto === 'https' ? proto : undefined,
      host: host !== undefined && HOST.test(host) ? host : undefined,
      prefix: prefix !== undefined && PREFIX.test(prefix) ? prefix.replace(/\/+$/, '') : '',
    };
  };
  const received = (req: IncomingMessage, f: ReturnType<typeof forwarded>) => {
    const proto = f?.proto ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
    const host = f?.host ?? req.headers.host ?? `${config.host}:${config.port}`;
    return `${proto}://${host}`;
  };
  const origin = (req: IncomingMessage) => received(req, forwarded(req));
  const configured = config.publicBaseUrl;
  if (configured !== undefined) {
    const prefix = new URL(configured).pathname.replace(/\/+$/, '');
    return { base: () => configured, pathPrefix: () => prefix, origin };
  }
  return {
    base(req) {
      const f = forwarded(req);
      return `${received(req, f)}${f?.prefix ?? ''}`;
    },
    pathPrefix: (req) => forwarded(req)?.prefix ?? '',
    origin,
  };
}

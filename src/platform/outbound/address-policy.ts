import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outbound call may reach (SSRF protection for user-supplied URLs). Only global
 * unicast addresses pass: loopback, private (RFC 1918), carrier-grade NAT, link-local (and with it
 * the cloud metadata address 169.254.169.254), unique-local IPv6 (fd00:ec2::254), multicast,
 * unspecified and reserved ranges are refused, and so are the IPv6 forms that embed an IPv4
 * address (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo). ipaddr.js
 * parses and classifies every spelling (hex groups, compressed zeros, mapped forms).
 */
export type AddressVerdict = { allowed: true; address: string; family: 4 | 6 } | { allowed: false; reason: string };

export function classifyAddress(raw: string): AddressVerdict {
  const literal = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  // A zone index (fe80::1%eth0) names an interface: only link-local addresses carry one.
  if (literal.includes('%'))
    return { allowed: false, reason: `${literal} is a link-local address (it names an interface)` };
  if (!ipaddr.isValid(literal)) return { allowed: false, reason: `${literal} is not an IP address` };
  // ::ffff:127.0.0.1 and ::ffff:7f00:1 are 127.0.0.1: process() judges (and connects to) the IPv4 address.
  const address = ipaddr.process(literal);
  const range = address.range();
  if (range !== 'unicast') return { allowed: false, reason: `${address.toString()} is ${describe(range)}` };
  return { allowed: true, address: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6 };
}

function describe(range: string): string {
  const names: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private (RFC 1918) address',
    linkLocal: 'a link-local address (where cloud metadata services answer)',
    uniqueLocal: 'a unique-local (private IPv6) address',
    carrierGradeNat: 'a shared (carrier-grade NAT) address',
    unspecified: 'the unspecified address',
    broadcast: 'the broadcast address',
    multicast: 'a multicast address',
    rfc6052: 'a NAT64 address (it embeds an IPv4 address)',
    rfc6145: 'an IPv4-translated address',
    '6to4': 'a 6to4 address (it embeds an IPv4 address)',
    teredo: 'a Teredo address (it embeds an IPv4 address)',
  };
  return names[range] ?? `a reserved address (${range})`;
}

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemLookup: Lookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * The outbound policy one caller works under. `allowPrivate` lifts the address check (and allows
 * plain http); `setting` is the variable that lifts it, named in every refusal so the operator
 * knows what to change: OUTBOUND_ALLOW_PRIVATE_NETWORKS for what the connectors fetch,
 * ALERTS_ALLOW_PRIVATE_NETWORKS for alert destinations.
 */
export interface OutboundPolicy {
  allowPrivate: boolean;
  setting: 'OUTBOUND_ALLOW_PRIVATE_NETWORKS' | 'ALERTS_ALLOW_PRIVATE_NETWORKS';
  lookup?: Lookup;
}

/** What the setting is for, in the refusal's last words. */
function purposeOf(setting: OutboundPolicy['setting']): string {
  return setting === 'OUTBOUND_ALLOW_PRIVATE_NETWORKS' ? 'on-premises sources' : 'private destinations';
}

/**
 * The one refusal text for an address the policy does not allow. It is decided before any
 * connection is tried, so it reads the same whether something listens at that address or not.
 */
export function privateAddressRefusal(host: string, kind: string, setting: OutboundPolicy['setting']): string {
  return `refused by the outbound policy: ${host} resolves to a private address (${kind}); set ${setting}=true for ${purposeOf(setting)}`;
}

export function plainHttpRefusal(host: string, setting: OutboundPolicy['setting']): string {
  return `refused by the outbound policy: ${host} is plain http; use https, or set ${setting}=true for ${purposeOf(setting)}`;
}

/** Which kind of non-public address `raw` is (for the refusal), or undefined when it is public. */
export function privateKindOf(raw: string): string | undefined {
  const verdict = classifyAddress(raw);
  if (verdict.allowed) return undefined;
  const literal = raw.replace(/^\[|\]$/g, '');
  if (literal.includes('%')) return 'link-local';
  if (!ipaddr.isValid(literal)) return 'not an IP address';
  return KIND_NAMES[ipaddr.process(literal).range()] ?? 'reserved';
}

const KIND_NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'RFC 1918',
  linkLocal: 'link-local, where cloud metadata services answer',
  uniqueLocal: 'unique-local IPv6',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  rfc6052: 'NAT64, embeds an IPv4 address',
  rfc6145: 'IPv4-translated',
  '6to4': '6to4, embeds an IPv4 address',
  teredo: 'Teredo, embeds an IPv4 address',
};

/** Names that always mean this machine, refused without asking a resolver. */
export function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * What the policy refuses of a URL before anything is sent: plain http, and a literal address or
 * a local name that is not public. A host name is resolved and judged at each use instead.
 */
export function staticRefusal(
  raw: string,
  policy: Pick<OutboundPolicy, 'allowPrivate' | 'setting'>,
): string | undefined {
  if (policy.allowPrivate) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined; // the schema says what is wrong with its form
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return (
    staticHostRefusal(host, policy) ?? (url.protocol === 'http:' ? plainHttpRefusal(host, policy.setting) : undefined)
  );
}

/** A literal address or a local name the policy refuses, told without resolving anything. */
export function staticHostRefusal(
  host: string,
  policy: Pick<OutboundPolicy, 'allowPrivate' | 'setting'>,
): string | undefined {
  if (policy.allowPrivate) return undefined;
  if (isLocalName(host)) return privateAddressRefusal(host, 'loopback', policy.setting);
  if (net.isIP(host) !== 0 || host.includes('%')) {
    const kind = privateKindOf(host);
    if (kind) return privateAddressRefusal(host, kind, policy.setting);
  }
  return undefined;
}

export class OutboundRefusedError extends Error {
  readonly code = 'outbound_refused';
}

export class OutboundResolveError extends Error {
  readonly code = 'outbound_unresolved';
}

/**
 * Resolves `host` once and answers the address to connect to. Every address the name resolves
 * to must be allowed (a name that also points inside is refused, whatever order the resolver
 * gives); the caller connects to the returned address only, so a second resolution (DNS
 * rebinding) cannot move the connection elsewhere. `allowPrivate` lifts the check, not the pinning.
 */
export async function resolvePinned(
  host: string,
  options: { allowPrivate: boolean; setting?: OutboundPolicy['setting']; lookup?: Lookup },
): Promise<{ address: string; family: 4 | 6 }> {
  const setting = options.setting ?? 'ALERTS_ALLOW_PRIVATE_NETWORKS';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!options.allowPrivate && isLocalName(bare))
    throw new OutboundRefusedError(privateAddressRefusal(bare, 'loopback', setting));
  const family = net.isIP(bare);
  let candidates: { address: string; family: number }[];
  if (family !== 0) candidates = [{ address: bare, family }];
  else {
    try {
      candidates = await (options.lookup ?? systemLookup)(bare);
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new OutboundResolveError(`${bare} does not resolve${code ? ` (${code})` : ''}`);
    }
    if (candidates.length === 0) throw new OutboundResolveError(`${bare} does not resolve`);
  }
  if (options.allowPrivate) {
    const first = candidates[0]!;
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }
  let pinned: { address: string; family: 4 | 6 } | undefined;
  for (const candidate of candidates) {
    const verdict = classifyAddress(candidate.address);
    if (!verdict.allowed)
      throw new OutboundRefusedError(privateAddressRefusal(bare, privateKindOf(candidate.address)!, setting));
    pinned ??= { address: verdict.address, family: verdict.family };
  }
  return pinned!;
}

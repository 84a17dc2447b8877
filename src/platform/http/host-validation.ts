import type { Config } from '../config.js';

const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Splits a Host header into hostname (IPv6 kept in brackets) and port. */
export function parseHost(host: string): { hostname: string; port: string | undefined } {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return { hostname: lower.slice(0, end + 1), port: lower.slice(end + 2) || undefined };
  }
  const [hostname, port] = lower.split(':');
  return { hostname: hostname ?? '', port };
}

/**
 * DNS-rebinding protection (HOST_HEADER_VALIDATION): `auto` on a loopback bind admits only local names,
 * `strict` only ALLOWED_HOST entries (a bare name admits any port), `off` anything.
 */
export function createHostValidator(
  config: Pick<Config, 'hostHeaderValidation' | 'allowedHosts' | 'host'>,
): (host: string | undefined) => boolean {
  if (config.hostHeaderValidation === 'off') return () => true;
  if (config.hostHeaderValidation === 'strict') {
    const allowed = config.allowedHosts;
    return (host) => {
      if (!host) return false;
      const { hostname, port } = parseHost(host);
      return allowed.some((entry) => {
        const e = parseHost(entry);
        return e.hostname === hostname && (e.port === undefined || e.port === port);
      });
    };
  }
  if (!LOOPBACK_BINDS.has(config.host)) return () => true;
  return (host) => host !== undefined && LOCAL_HOSTNAMES.has(parseHost(host).hostname);
}

/**
 * Browser Origins allowed on /mcp: ALLOWED_ORIGINS, or any localhost origin by default. Requests
 * without an Origin (non-browser clients) pass; a present, other Origin is refused.
 */
export function createOriginValidator(config: Pick<Config, 'allowedOrigins'>): (origin: string | undefined) => boolean {
  const allowed = config.allowedOrigins?.map((o) => o.toLowerCase().replace(/\/$/, ''));
  return (origin) => {
    if (origin === undefined || origin === '') return true;
    const normalized = origin.toLowerCase().replace(/\/$/, '');
    if (allowed) return allowed.includes('*') || allowed.includes(normalized);
    try {
      const url = new URL(normalized);
      return LOCAL_HOSTNAMES.has(url.hostname) || url.hostname === '[::1]';
    } catch {
      return false;
    }
  };
}

import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { createPublicUrls } from '../../src/platform/http/public-url.js';

/** A request as node hands it over: the peer address, TLS or not, and the headers. */
function request(remoteAddress: string, headers: Record<string, string>, encrypted = false): IncomingMessage {
  return { socket: { remoteAddress, encrypted }, headers } as unknown as IncomingMessage;
}

const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/unused', ...env });
const forwarded = { host: 'localhost:8000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'hub.example.com' };

describe('the public base URL every advertised URL is built from', () => {
  it('without settings: the request as received (scheme of the socket, Host header), X-Forwarded-* ignored', () => {
    const urls = createPublicUrls(config({}));
    expect(urls.base(request('127.0.0.1', forwarded))).toBe('http://localhost:8000');
    expect(urls.base(request('127.0.0.1', { host: 'localhost:8000' }, true))).toBe('https://localhost:8000');
  });

  it('believes X-Forwarded-Proto/-Host/-Prefix (the nearest proxy’s value) only from a peer in TRUSTED_PROXIES', () => {
    const urls = createPublicUrls(config({ TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7' }));
    const headers = { ...forwarded, 'x-forwarded-proto': 'http, https', 'x-forwarded-prefix': '/hub/' };
    expect(urls.base(request('10.1.2.3', headers))).toBe('https://hub.example.com/hub');
    expect(urls.base(request('::ffff:192.168.1.7', headers))).toBe('https://hub.example.com/hub');
    expect(urls.pathPrefix(request('10.1.2.3', headers))).toBe('/hub');
    expect(urls.base(request('127.0.0.1', headers))).toBe('http://localhost:8000');
    expect(urls.pathPrefix(request('127.0.0.1', headers))).toBe('');
    expect(urls.base(request('192.168.1.8', headers))).toBe('http://localhost:8000');
    // A value that is not a scheme, a host or a path is ignored, not echoed into a URL.
    const bad = {
      host: 'localhost:8000',
      'x-forwarded-proto': 'javascript',
      'x-forwarded-host': 'a"b',
      'x-forwarded-prefix': 'x',
    };
    expect(urls.base(request('10.1.2.3', bad))).toBe('http://localhost:8000');
    expect(createPublicUrls(config({ TRUSTED_PROXIES: 'loopback' })).base(request('::1', forwarded))).toBe(
      'https://hub.example.com',
    );
  });

  it('PUBLIC_BASE_URL wins over the request and any proxy header, prefix and all', () => {
    const urls = createPublicUrls(config({ PUBLIC_BASE_URL: 'https://example.com/hub/', TRUSTED_PROXIES: 'loopback' }));
    expect(urls.base(request('127.0.0.1', forwarded))).toBe('https://example.com/hub');
    expect(urls.pathPrefix(request('127.0.0.1', forwarded))).toBe('/hub');
  });

  it('refuses bad settings at start with one line naming the variable', () => {
    for (const value of [
      'hub.example.com',
      'ftp://x.example',
      'https://u:p@x.example',
      'https://x.example/?a=1',
      'https://x.example/#f',
    ])
      expect(() => config({ PUBLIC_BASE_URL: value })).toThrow(/^PUBLIC_BASE_URL=.* is not allowed: an http\(s\) URL/);
    for (const value of ['10.0.0.0/33', 'proxy.example', '10.0.0.1/8/2', 'localhost', '::1/129'])
      expect(() => config({ TRUSTED_PROXIES: `127.0.0.1,${value}` })).toThrow(/^TRUSTED_PROXIES=.* is not allowed/);
    expect(config({ TRUSTED_PROXIES: '127.0.0.1, ::1, fd00::/8, uniquelocal' }).trustedProxies).toHaveLength(4);
  });

  it('OAUTH_AUDIENCE takes a comma-separated list', () => {
    const oauth = {
      SERVICE_AUTH_MODE: 'oauth',
      OAUTH_ISSUER: 'https://idp.example/',
      OAUTH_JWKS_URL: 'https://idp.example/jwks',
    };
    expect(config({ ...oauth, OAUTH_AUDIENCE: 'https://hub.example/mcp, https://hub.example' }).oauthAudience).toEqual([
      'https://hub.example/mcp',
      'https://hub.example',
    ]);
    expect(() => config({ ...oauth, OAUTH_AUDIENCE: ' , ' })).toThrow(/^OAUTH_AUDIENCE=/);
  });
});

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import {
  type OutboundPolicy,
  OutboundRefusedError,
  plainHttpRefusal,
  resolvePinned,
  staticHostRefusal,
} from './address-policy.js';
import { OutboundError } from './outbound-http.js';

/**
 * One request to a URL someone other than the operator chose (a connector's export, API or token
 * endpoint), under the outbound policy: each hop's host is resolved once and judged, the socket
 * connects to that very address (TLS still verifies the name), a redirect is followed only after
 * its target passed the same judgement, and an Authorization header never follows a redirect to
 * another origin. The answer's body is a stream: an export may be far larger than memory.
 */
export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  policy: OutboundPolicy;
  /** From the first byte sent to the answer's headers, and the longest silence while reading the body. */
  timeoutMs: number;
  /** Redirects followed at most (each one judged by the policy first). */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface OutboundStreamResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The URL that answered (after redirects). */
  url: string;
  body: Readable;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function outboundRequest(rawUrl: string, request: OutboundRequest): Promise<OutboundStreamResponse> {
  let url = parseUrl(rawUrl);
  let method = request.method ?? 'GET';
  let headers = { ...(request.headers ?? {}) };
  let body = request.body;
  const maxRedirects = request.maxRedirects ?? 5;
  for (let hop = 0; ; hop += 1) {
    const res = await oneHop(url, { ...request, method, headers, body });
    const location = res.headers.location;
    if (!REDIRECTS.has(res.status) || !location) return res;
    res.body.resume();
    res.body.destroy();
    if (hop >= maxRedirects)
      throw new OutboundError('network', `more than ${maxRedirects} redirects from ${url.hostname}`, 0);
    const next = parseUrl(new URL(location, url).toString());
    // Credentials are for the origin they were given to, never for where it points.
    if (next.origin !== url.origin) headers = withoutAuthorization(headers);
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = Object.fromEntries(
        Object.entries(headers).filter(([k]) => !['content-type', 'content-length'].includes(k.toLowerCase())),
      );
    }
    url = next;
  }
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'));
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid_url', 'the URL is not valid', 0);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError('invalid_url', 'the URL must use http or https', 0);
  if (url.username || url.password) throw new OutboundError('invalid_url', 'the URL may not carry credentials', 0);
  return url;
}

async function oneHop(
  url: URL,
  request: OutboundRequest & { method: string; headers: Record<string, string> },
): Promise<OutboundStreamResponse> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const { policy } = request;
  // The literal or local-name refusal first, so that plain http to 127.0.0.1 is told as a private address.
  const literal = staticHostRefusal(host, policy);
  if (literal) throw new OutboundError('refused', literal, 0);
  if (!policy.allowPrivate && url.protocol === 'http:')
    throw new OutboundError('refused', plainHttpRefusal(host, policy.setting), 0);
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await resolvePinned(host, policy);
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new OutboundError('refused', error.message, 0);
    throw new OutboundError('unresolved', `DNS: ${(error as Error).message}`, 0);
  }
  const lookup: LookupFunction = (_hostname, opts, callback) => {
    if (opts.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundStreamResponse>((resolve, reject) => {
    let settled = false;
    const fail = (error: OutboundError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const req = transport.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        lookup,
        // A fresh connection per request: a pooled socket could lead to an address resolved before.
        agent: false,
        signal: request.signal,
        ...(url.protocol === 'https:' ? { servername: net(host) ? undefined : host } : {}),
      },
      (res) => {
        clearTimeout(waiting);
        settled = true;
        // The body may be slow but never silent for longer than the timeout.
        res.socket.setTimeout(request.timeoutMs, () =>
          res.destroy(new OutboundError('timeout', `timeout: ${host} went silent for ${request.timeoutMs} ms`, 0)),
        );
        resolve({ status: res.statusCode ?? 0, headers: res.headers, url: url.toString(), body: res });
      },
    );
    const waiting = setTimeout(() => {
      fail(new OutboundError('timeout', `timeout: no answer from ${host} within ${request.timeoutMs} ms`, 0));
      req.destroy();
    }, request.timeoutMs);
    req.on('error', (error) => {
      clearTimeout(waiting);
      const code = (error as { code?: string }).code;
      if (request.signal?.aborted) fail(new OutboundError('timeout', `the request to ${host} was cancelled`, 0));
      else if (code === 'ECONNREFUSED')
        // Not transient in the sense of a reset: nothing listens, and asking again will not change that.
        fail(new OutboundError('unreachable', `connection refused: nothing listens at ${host}`, 0));
      else {
        // A certificate that fails now fails on the next try too: only resets and the like are retried.
        const tls = !!code && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code);
        fail(new OutboundError(tls ? 'unreachable' : 'network', networkReason(host, code, error.message), 0));
      }
    });
    req.end(body);
  });
}

function networkReason(host: string, code: string | undefined, message: string): string {
  if (code === 'ECONNRESET' || code === 'EPIPE') return `connection reset by ${host}`;
  if (code && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code))
    return `TLS: the certificate of ${host} could not be verified (${code})`;
  return `network error with ${host} (${code ?? message})`;
}

const net = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');

/** The whole body as a Buffer, at most `limit` bytes (more is an error: an API page is not that big). */
export async function readBody(res: OutboundStreamResponse, limit = 64 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        res.body.destroy();
        throw new OutboundError('network', `the answer is larger than ${limit} bytes`, 0);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    const code = (error as { code?: string }).code;
    throw new OutboundError('network', `the answer broke off (${code ?? (error as Error).message})`, 0);
  }
  return Buffer.concat(chunks);
}

/** Reads and drops the rest of an answer that is not wanted (so the socket closes cleanly). */
export function discard(res: OutboundStreamResponse): void {
  res.body.resume();
  res.body.on('error', () => undefined);
}

/**
 * The answer's body as JSON (undefined when it is not JSON or larger than `limit`), read whole and
 * put back as the answer's body, so a retry hint can judge an error body and the caller can
 * still read it after the hint said the answer is final.
 */
export async function peekJson(res: OutboundStreamResponse, limit = 256 * 1024): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readBody(res, limit);
  } catch {
    res.body = Readable.from([]);
    return undefined;
  }
  res.body = Readable.from([bytes]);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type Lookup, OutboundRefusedError, resolvePinned } from './address-policy.js';

/**
 * One outbound HTTP request to a user-supplied URL, guarded: the host is resolved once and checked
 * (address-policy.ts), the connection goes to that pinned address (TLS still verifies the name),
 * redirects are answered as they are (never followed), and both the time and the bytes read are
 * bounded. Errors name the host at most, never the path or query (a Slack or Teams URL is a
 * credential).
 */
export interface OutboundOptions {
  /** ALERTS_ALLOW_PRIVATE_NETWORKS: loopback and private addresses pass (tests, on-premises receivers). */
  allowPrivate: boolean;
  /** Whole exchange: resolution, connection, request, answer. */
  timeoutMs: number;
  /** Bytes of the answer read at most; the rest is dropped and the connection closed. */
  maxResponseBytes?: number;
  lookup?: Lookup;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** What was read of the answer (up to maxResponseBytes). */
  body: Buffer;
  truncated: boolean;
  latencyMs: number;
}

export type OutboundFailureKind = 'refused' | 'unresolved' | 'unreachable' | 'timeout' | 'network' | 'invalid_url';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailureKind,
    message: string,
    readonly latencyMs: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/** Parses a destination URL: http(s) only, no credentials in it. */
export function outboundUrl(raw: string): URL {
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

export async function postOutbound(
  rawUrl: string,
  request: { headers: Record<string, string>; body: string | Buffer },
  options: OutboundOptions,
): Promise<OutboundResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = outboundUrl(rawUrl);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    let pinned: { address: string; family: 4 | 6 };
    try {
      pinned = await withAbort(resolvePinned(host, options), controller.signal);
    } catch (error) {
      if (controller.signal.aborted) throw timeoutError(options.timeoutMs, elapsed());
      if (error instanceof OutboundRefusedError) throw new OutboundError('refused', error.message, elapsed());
      throw new OutboundError('unresolved', (error as Error).message, elapsed());
    }
    const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
    // The socket connects to the pinned address whatever name it was given.
    const lookup: LookupFunction = (_hostname, opts, callback) => {
      if (opts.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const transport = url.protocol === 'https:' ? https : http;
    return await new Promise<OutboundResponse>((resolve, reject) => {
      const req = transport.request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(body.length) },
          lookup,
          // A fresh connection per request: a pooled socket could lead to an address resolved before.
          agent: false,
          signal: controller.signal,
          ...(url.protocol === 'https:' ? { servername: host } : {}),
        },
        (res) => {
          const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          const finish = () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
              truncated,
              latencyMs: elapsed(),
            });
          res.on('data', (chunk: Buffer) => {
            if (truncated) return;
            const room = limit - size;
            if (chunk.length >= room) {
              chunks.push(chunk.subarray(0, room));
              size = limit;
              truncated = true;
              res.destroy();
              finish();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          res.on('end', () => !truncated && finish());
          res.on('error', (error) => {
            if (truncated) return;
            reject(
              controller.signal.aborted
                ? timeoutError(options.timeoutMs, elapsed())
                : new OutboundError('network', `the answer from ${host} broke off: ${networkReason(error)}`, elapsed()),
            );
          });
        },
      );
      req.on('error', (error) => {
        reject(
          controller.signal.aborted
            ? timeoutError(options.timeoutMs, elapsed())
            : new OutboundError('network', `${host}: ${networkReason(error)}`, elapsed()),
        );
      });
      req.end(body);
    });
  } finally {
    clearTimeout(deadline);
  }
}

function timeoutError(timeoutMs: number, latencyMs: number): OutboundError {
  return new OutboundError('timeout', `no complete answer within ${timeoutMs} ms`, latencyMs);
}

/** A socket error's code and message, which name addresses and ports, never the URL's path. */
function networkReason(error: Error): string {
  const code = (error as { code?: string }).code;
  return code ? `${code}` : error.message;
}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The first `max` bytes of an answer as text, cut at a character boundary, without NULs. */
export function excerptOf(body: Buffer, max = 500): string {
  let end = Math.min(body.length, max);
  // Step back over continuation bytes so a multi-byte character is never cut in half.
  if (end < body.length) while (end > 0 && (body[end]! & 0xc0) === 0x80) end -= 1;
  let chars = [
    ...body
      .subarray(0, end)
      .toString('utf8')
      .replace(/\u0000/g, ''),
  ];
  // Bytes that are not UTF-8 decode to U+FFFD (3 bytes each): drop characters until it fits again.
  while (Buffer.byteLength(chars.join('')) > max) chars = chars.slice(0, -1);
  return chars.join('');
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import pino from 'pino';
import {
  handOnWithId,
  MCP_BODY_LIMIT,
  requestIdFor,
  type AuthorizableRequest,
  type PreRouter,
} from '../platform/http/app.js';
import { checkJsonDepth } from '../platform/json-depth.js';
import type { Logger } from '../platform/logger.js';
import { corsResponseHeaders } from './cors.js';
import type { LegacySessionManager } from './legacy-sessions.js';
import type { Cancellation, ModernFastPath } from './modern-dispatch.js';
import type { CallerInfo } from './server.js';

const PRE_ROUTED = Symbol('mcp-pre-routed');

/**
 * Cancellation that costs nothing until a tool reads the signal: an AbortController per request
 * was ~2 % of a cheap call, and most tools never look.
 */
class CancelOnClose implements Cancellation {
  private controller: AbortController | undefined;
  private closed = false;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.closed) this.controller.abort();
    return this.controller.signal;
  }

  readonly onClose = (): void => {
    this.closed = true;
    this.controller?.abort();
  };
}

/** What the pre-router leaves on a request it hands on to Fastify's /mcp route. */
export interface PreRouted {
  /** The body it read; Fastify's parser reads it again from here (preRoutedBody). */
  body: Buffer;
  /**
   * The gate's outcome when it ran (a caller, or the error to answer). The route must not run the
   * gate a second time: the rate limit would count the request twice.
   */
  gate?: { caller: CallerInfo } | { error: unknown };
}

export function preRoutedOf(req: IncomingMessage): PreRouted | undefined {
  return (req as IncomingMessage & { [PRE_ROUTED]?: PreRouted })[PRE_ROUTED];
}

/** The body stream Fastify parses for a request the pre-router read and handed on. */
export function preRoutedBody(req: IncomingMessage): Readable | undefined {
  const pre = preRoutedOf(req);
  return pre ? Readable.from([pre.body]) : undefined;
}

export interface McpPreRouterDeps {
  /** The /mcp gate (Origin, then authorizeRequest): the same function Fastify's route runs. */
  gate(request: AuthorizableRequest, requestId: string): Promise<CallerInfo>;
  hostAllowed(host: string | undefined): boolean;
  fastPath: ModernFastPath;
  legacy: LegacySessionManager;
  log: Logger;
  /** True once the app is closing: Fastify then answers 503 to everything. */
  closing(): boolean;
}

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json';
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    // A client that goes away mid-body leaves nothing to answer.
    req.once('error', () => resolve(undefined));
    req.once('close', () => resolve(undefined));
  });
}

/**
 * The hot /mcp requests (plain `tools/list`, read-only `tools/call`, on either era) answered on
 * node's request event, below Fastify: per request, Fastify's routing, hooks, child logger and
 * reply cost about as much as the fast path itself (bench:mcp profiles).
 *
 * It takes only what it can answer exactly as the route would and hands the rest on untouched:
 * before reading the body (not a POST of a JSON body within the limit, a Host the route would
 * refuse, the app closing) or after it (malformed JSON, any other method, the gate refusing, the
 * fast path declining). A handed-on request carries the body it read and the gate's outcome, so
 * Fastify parses the same bytes and the gate runs once.
 */
export function createMcpPreRouter(deps: McpPreRouterDeps): PreRouter {
  return (req, res, fastify) => {
    if (req.method !== 'POST' || req.url !== '/mcp' || deps.closing()) return false;
    const length = Number(req.headers['content-length']);
    if (!(length > 0 && length <= MCP_BODY_LIMIT) || req.headers['content-encoding'] !== undefined) return false;
    if (!isJsonContentType(req.headers['content-type']) || !deps.hostAllowed(req.headers.host)) return false;
    serve(deps, req, res, fastify).catch((error: unknown) => {
      // A defect here must cost one request, never the process (an unhandled rejection would).
      deps.log.error(
        { err: { message: error instanceof Error ? error.message : String(error) } },
        'mcp pre-router failed',
      );
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":null}');
    });
    return true;
  };
}

async function serve(
  deps: McpPreRouterDeps,
  req: IncomingMessage,
  res: ServerResponse,
  fastify: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<void> {
  const started = performance.now();
  const requestId = requestIdFor(req);
  const raw = await readBody(req);
  if (raw === undefined) return void res.destroy();
  const handOn = (gate?: PreRouted['gate']) => {
    (req as IncomingMessage & { [PRE_ROUTED]?: PreRouted })[PRE_ROUTED] = { body: raw, ...(gate ? { gate } : {}) };
    handOnWithId(req, requestId);
    fastify(req, res);
  };
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return handOn();
  }
  // Nested too deep for anything to walk: the route gives the JSON-RPC error (json-rpc-depth.ts).
  if (checkJsonDepth(body)) return handOn();
  const method = typeof body === 'object' && body !== null ? (body as { method?: unknown }).method : undefined;
  if (method !== 'tools/list' && method !== 'tools/call') return handOn();

  let caller: CallerInfo;
  try {
    caller = await deps.gate({ headers: req.headers, url: '/mcp', body }, requestId);
  } catch (error) {
    return handOn({ error });
  }
  const sessionId = req.headers['mcp-session-id'];
  // A session request is answered here only on a live session of this caller held by this process.
  if (
    sessionId !== undefined &&
    (typeof sessionId !== 'string' || !deps.legacy.useLiveSession(sessionId, caller.actor.subject))
  )
    return handOn({ caller });

  // The response closing before we answered means the client went away: cancel the tool.
  const cancel = new CancelOnClose();
  res.once('close', cancel.onClose);
  let answer: Buffer[] | undefined;
  try {
    answer = await (sessionId === undefined
      ? deps.fastPath.answer(req.headers, body, caller, cancel)
      : deps.fastPath.answerSession(req.headers, body, caller, cancel));
  } catch (error) {
    return handOn({ error });
  } finally {
    res.off('close', cancel.onClose);
  }
  if (answer === undefined) return handOn({ caller });

  let length = 0;
  for (const chunk of answer) length += chunk.length;
  const headers =
    sessionId === undefined
      ? ['content-type', 'application/json', 'content-length', String(length), 'x-request-id', requestId]
      : [
          'content-type',
          'text/event-stream',
          'cache-control',
          'no-cache',
          'mcp-session-id',
          sessionId,
          'content-length',
          String(length),
          'x-request-id',
          requestId,
        ];
  // The gate let this Origin through: a browser page needs to be allowed to read the answer.
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== '')
    for (const [name, value] of corsResponseHeaders(origin)) headers.push(name, value);
  res.writeHead(200, headers);
  // Corked, the head and the chunks leave in one writev.
  res.cork();
  for (let i = 0; i < answer.length - 1; i++) res.write(answer[i]);
  res.end(answer[answer.length - 1]);
  if (pino.levels.values[deps.log.level]! <= pino.levels.values.info!) {
    deps.log.info(
      {
        reqId: requestId,
        req: { method: 'POST', url: '/mcp' },
        res: { statusCode: 200 },
        responseTime: performance.now() - started,
      },
      'request completed',
    );
  }
}

import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyServerFactory, RouteOptions } from 'fastify';
import pino from 'pino';
import type { Logger } from '../logger.js';
import { requestIdFor } from './request-id.js';

/**
 * Answers the plain requests of one hot route below Fastify, without its per-request machinery
 * (routing, hooks, child logger, reply), or declines them. It must apply the same gate as the
 * route it shadows (authorizeRequest) and decline everything it cannot answer exactly as the route
 * would, so Fastify still gives every other answer and the route table and its rules stay the whole
 * picture.
 */
export interface FastPath {
  /** The route it shadows. Only its POSTs of a JSON body within `bodyLimit` bytes are offered. */
  url: string;
  bodyLimit: number;
  /**
   * Resolves true once it has answered, or false to decline before writing anything: the route
   * then gets the request with the body read here and the same request id. It answers its own
   * failures; it never rejects.
   */
  answer(req: IncomingMessage, res: ServerResponse, body: Buffer, requestId: string): Promise<boolean>;
}

/** On every answer, the fast path's included: no browser sniffs an answer into another type. */
export const NOSNIFF = ['x-content-type-options', 'nosniff'] as const;

/** What the app holds for a request it read for the fast path and then gave to Fastify. */
interface HandedOn {
  requestId: string;
  body: Buffer;
}

const HANDED_ON = Symbol('fast-path-handed-on');

function handedOn(req: IncomingMessage): HandedOn | undefined {
  return (req as IncomingMessage & { [HANDED_ON]?: HandedOn })[HANDED_ON];
}

/** The request id: the one the fast path already used (logs, answers) for a request it declined. */
export function genRequestId(req: IncomingMessage): string {
  return handedOn(req)?.requestId ?? requestIdFor(req);
}

/** The shadowed route parses the bytes the fast path read. */
export function replayHandedOnBody(route: RouteOptions): void {
  const replay = async (request: { raw: IncomingMessage }, _reply: unknown, payload: unknown) => {
    const pre = handedOn(request.raw);
    return pre ? Readable.from([pre.body]) : payload;
  };
  const own = route.preParsing;
  route.preParsing = (own ? [replay, ...[own].flat()] : replay) as RouteOptions['preParsing'];
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

export interface FastPathDoor {
  fastPath?: FastPath;
  log: Logger;
  hostAllowed(host: string | undefined): boolean;
  /** True once the app is closing: Fastify then answers 503 to everything. */
  closing(): boolean;
}

/**
 * Fastify's own server, with a door for the fast path in front of it. The fast path takes only
 * what the route would answer the same way: a request the route would refuse before reading the
 * body (a Host it refuses, a body over its limit or encoded, not JSON, the app closing) goes to
 * Fastify untouched.
 */
export function serverWithFastPath(door: FastPathDoor): FastifyServerFactory {
  return (handler, options) => {
    // Fastify has filled in its defaults by the time it calls the factory; its types do not say so.
    const o = options as unknown as {
      http?: http.ServerOptions;
      keepAliveTimeout: number;
      requestTimeout: number;
      connectionTimeout: number;
      maxRequestsPerSocket: number;
    };
    const fastPath = door.fastPath;
    const server = http.createServer(o.http ?? {}, (req, res) => {
      if (fastPath && offered(fastPath, door, req)) {
        // The fast path writes its head in one call with this header among them (mcp/fast-path).
        serve(fastPath, door.log, req, res, handler).catch((error: unknown) => {
          // Unreachable while the fast path keeps its promise not to reject; one request, not the process.
          door.log.error(
            { err: { message: error instanceof Error ? error.message : String(error) } },
            'fast path failed',
          );
          res.destroy();
        });
        return;
      }
      // Every answer says what it is: no browser reads one as another type (no content sniffing).
      res.setHeader(NOSNIFF[0], NOSNIFF[1]);
      handler(req, res);
    });
    // What Fastify's own factory sets on the server it builds.
    server.keepAliveTimeout = o.keepAliveTimeout;
    server.requestTimeout = o.requestTimeout;
    server.setTimeout(o.connectionTimeout);
    if (o.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
    return server;
  };
}

function offered(fastPath: FastPath, door: FastPathDoor, req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.url !== fastPath.url || door.closing()) return false;
  const length = Number(req.headers['content-length']);
  if (!(length > 0 && length <= fastPath.bodyLimit) || req.headers['content-encoding'] !== undefined) return false;
  return isJsonContentType(req.headers['content-type']) && door.hostAllowed(req.headers.host);
}

async function serve(
  fastPath: FastPath,
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  fastify: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<void> {
  const started = performance.now();
  const requestId = requestIdFor(req);
  const body = await readBody(req);
  if (body === undefined) return void res.destroy();
  if (!(await fastPath.answer(req, res, body, requestId))) {
    (req as IncomingMessage & { [HANDED_ON]?: HandedOn })[HANDED_ON] = { requestId, body };
    res.setHeader(NOSNIFF[0], NOSNIFF[1]);
    return fastify(req, res);
  }
  // The line Fastify logs for every request it answers.
  if (pino.levels.values[log.level]! <= pino.levels.values.info!) {
    log.info(
      {
        reqId: requestId,
        req: { method: 'POST', url: fastPath.url },
        res: { statusCode: res.statusCode },
        responseTime: performance.now() - started,
      },
      'request completed',
    );
  }
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isLegacyRequest,
  type AuthInfo,
  type JSONRPCMessage,
  type McpHttpHandler,
  type McpServer,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { toWebRequest } from '@modelcontextprotocol/node';
import { NotFoundError } from '../platform/errors.js';
import { MALFORMED_JSON } from '../platform/http/body-parsing.js';
import { sendProblem } from '../platform/http/error-mapping.js';
import { createOriginValidator } from '../platform/http/host-validation.js';
import { MCP_BODY_LIMIT } from '../platform/http/limits.js';
import { createPublicUrls } from '../platform/http/public-url.js';
import type { Config } from '../platform/config.js';
import type { LegacySessionManager } from './legacy-sessions/manager.js';
import { sendChange } from './change-notifications.js';
import { registerMcpCors } from './cors.js';
import { gateOutcomeOf } from './fast-path/index.js';
import { MCP_RULE, type McpGate } from './gate.js';
import { replyTooDeep, TooDeepJson } from './json-rpc-depth.js';
import { authInfoFor, type CallerInfo } from './server.js';
import { SseServerTransport } from './sse-transport.js';
import { writeWebResponse } from './web-response.js';

export interface McpEndpointDeps {
  config: Config;
  /** The same gate the fast path runs (createMcpGate). */
  gate: McpGate;
  legacy: LegacySessionManager;
  modern: McpHttpHandler;
  /** A server for one 2024-11-05 SSE connection, bound to its caller. */
  createSseServer: (caller: CallerInfo) => McpServer;
  /** Changes every replica sees: an SSE connection hears list changes on its stream. */
  feed: ServerEventBus;
}

function jsonRpcErrorReply(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * /mcp for every protocol era, plus the 2024-11-05 SSE pair. Origin and authentication run first
 * (the same gate as REST); then `isLegacyRequest` routes 2025-era traffic to the session manager
 * and 2026-07-28 traffic to the SDK's stateless handler.
 */
export function registerMcpEndpoint(app: FastifyInstance, deps: McpEndpointDeps): void {
  registerMcpCors(app, createOriginValidator(deps.config));
  const sseSessions = new Map<string, { transport: SseServerTransport; subject: string }>();
  const gate = deps.gate;
  const publicUrls = createPublicUrls(deps.config);

  /** The gate for a request Fastify routed: its outcome from the fast path when that ran it. */
  async function gateRouted(request: FastifyRequest): Promise<CallerInfo> {
    const gated = gateOutcomeOf(request.raw);
    if (!gated) return gate(request, String(request.id));
    if ('error' in gated) throw gated.error;
    request.actor = gated.caller.actor;
    return gated.caller;
  }

  // Plain tools/list and read-only tools/call may be answered below Fastify (fast-path/, given to
  // the HTTP app as its fastPath option); this route answers everything else, and all of it when
  // the fast path is off.
  const handleMcp = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await gateRouted(request);
    if (request.body === MALFORMED_JSON)
      return jsonRpcErrorReply(reply, 400, -32700, 'Parse error: the body is not valid JSON');
    if (request.body instanceof TooDeepJson) return replyTooDeep(reply, request.body);
    const body = request.body;
    const authInfo: AuthInfo = authInfoFor(caller, bearerOf(request));
    const webRequest = await toWebRequest(request.raw, body);
    const legacy = await isLegacyRequest(webRequest, body);
    const response = legacy
      ? await deps.legacy.handle(webRequest, body, caller, authInfo)
      : await deps.modern.fetch(webRequest, { authInfo, parsedBody: body });
    reply.hijack();
    await writeWebResponse(reply.raw, response, { 'x-request-id': String(request.id) });
  };

  // The MCP gate checks Origin itself (ALLOWED_ORIGINS, else any loopback origin: docs/auth.md);
  // the HTTP layer still holds bodies to JSON, so no page posts to it without a CORS preflight.
  const mcpConfig = { rule: MCP_RULE, ownsMalformedJson: true, originPolicy: 'mcp' as const };
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: '/mcp',
    bodyLimit: MCP_BODY_LIMIT,
    config: mcpConfig,
    handler: handleMcp,
  });

  app.get('/sse', { config: { rule: MCP_RULE } }, async (request, reply) => {
    const caller = await gate(request, String(request.id));
    reply.hijack();
    // A path, resolved by the client against its own URL: behind a proxy that adds a prefix it keeps it.
    const transport = new SseServerTransport(reply.raw, `${publicUrls.pathPrefix(request.raw)}/messages`);
    const server = deps.createSseServer(caller);
    sseSessions.set(transport.sessionId, { transport, subject: caller.actor.subject });
    // List changes (a Skill revised on any replica: the prompt list) reach the connection's stream;
    // this transport takes no resource subscriptions, so no resource update does.
    const unsubscribe = deps.feed.subscribe((event) => {
      void sendChange(server, event, () => false)?.catch(() => undefined);
    });
    transport.onclose = () => {
      unsubscribe();
      sseSessions.delete(transport.sessionId);
      void server.close().catch(() => undefined);
    };
    await server.connect(transport);
  });

  app.post('/messages', { bodyLimit: MCP_BODY_LIMIT, config: mcpConfig }, async (request, reply) => {
    const caller = await gate(request, String(request.id));
    const sessionId = (request.query as { sessionId?: string }).sessionId;
    const session = sessionId ? sseSessions.get(sessionId) : undefined;
    if (!session || session.subject !== caller.actor.subject) {
      return sendProblem(
        reply,
        new NotFoundError('session_not_found', 'No open SSE session with this sessionId; open GET /sse again.'),
      );
    }
    const body = request.body;
    if (body instanceof TooDeepJson) return replyTooDeep(reply, body);
    if (body === MALFORMED_JSON || typeof body !== 'object' || body === null) {
      return jsonRpcErrorReply(reply, 400, -32700, 'Parse error: the body is not a JSON-RPC message');
    }
    // 2024-11-05 has no batches, and the server would drop anything that is not one message
    // without a word: the client must hear why.
    if (Array.isArray(body)) {
      return jsonRpcErrorReply(
        reply,
        400,
        -32600,
        'Invalid Request: this transport takes one JSON-RPC message per POST, not a batch',
      );
    }
    if (!isJSONRPCRequest(body) && !isJSONRPCNotification(body) && !isJSONRPCResponse(body)) {
      return jsonRpcErrorReply(
        reply,
        400,
        -32600,
        'Invalid Request: the body is not a JSON-RPC 2.0 request, notification or response',
      );
    }
    session.transport.receive(body as JSONRPCMessage, authInfoFor(caller, bearerOf(request)));
    return reply.code(202).send('Accepted');
  });

  app.addHook('onClose', async () => {
    for (const { transport } of sseSessions.values()) await transport.close();
  });
}

function bearerOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7) : '';
}

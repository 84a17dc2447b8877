import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { type FastPath, NOSNIFF } from '../../platform/http/fast-path.js';
import type { AuthorizableRequest } from '../../platform/http/gate.js';
import { MCP_BODY_LIMIT } from '../../platform/http/limits.js';
import { checkJsonDepth } from '../../platform/json-depth.js';
import type { Logger } from '../../platform/logger.js';
import { corsResponseHeaders } from '../cors.js';
import { type CallerInfo, serverIdentity } from '../server.js';
import type { McpServerDeps } from '../server-deps.js';
import { ModernAnswers } from './modern.js';
import { answerOnSession } from './session.js';
import { SkillPages } from './skill-pages.js';
import { type Cancellation, ToolAnswers } from './tool-answers.js';
import { ViewReads } from './view-reads.js';

/**
 * Cancellation that costs nothing until a tool reads the signal: an AbortController per request
 * was a visible share of a cheap call, and most tools never look.
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

/**
 * The gate's outcome for a request the fast path declined after running it (a caller, or the
 * error to answer). The /mcp route must not run the gate a second time: the rate limit would
 * count the request twice.
 */
export type GateOutcome = { caller: CallerInfo } | { error: unknown };

const GATE_OUTCOME = Symbol('mcp-gate-outcome');

/** The gate's outcome when the fast path ran it for this request and declined it. */
export function gateOutcomeOf(req: IncomingMessage): GateOutcome | undefined {
  return (req as IncomingMessage & { [GATE_OUTCOME]?: GateOutcome })[GATE_OUTCOME];
}

export interface McpFastPathDeps {
  server: McpServerDeps;
  /** The /mcp gate (Origin, then authorizeRequest): the same function the route runs. */
  gate(request: AuthorizableRequest, requestId: string): Promise<CallerInfo>;
  /**
   * The caller's live 2025-era session when this process holds it (and records its use): what its
   * client declared at initialize; undefined when the process does not hold it.
   */
  useLiveSession(id: string, subject: string): { capabilities: ClientCapabilities | undefined } | undefined;
  log: Logger;
}

/**
 * The MCP fast path: the hot /mcp requests (plain `tools/list`, read-only `tools/call`,
 * `resources/read` of a view and `skills/list`, on either era) answered on node's request event,
 * below Fastify, whose per-request routing, hooks, child logger and reply cost about as much as the
 * answer itself (bench:mcp profiles). The HTTP app offers it the POSTs it may take (buildHttpApp's
 * fastPath option).
 *
 * It answers only what it can answer exactly as the route would and declines the rest: malformed
 * JSON, any other method, the gate refusing, the era's answerer declining. A declined request
 * reaches the route with the body read here and the gate's outcome, so Fastify parses the same
 * bytes and the gate runs once.
 */
export function createMcpFastPath(deps: McpFastPathDeps): FastPath {
  const tools = new ToolAnswers(deps.server);
  const views = new ViewReads(deps.server.registry.views, serverIdentity(deps.server));
  const modern = new ModernAnswers(tools, views);
  // Before 2026-07-28 the extension has no cache hint: a page is the entries and the cursor alone.
  const sessionSkills = new SkillPages(deps.server, '');
  return {
    url: '/mcp',
    bodyLimit: MCP_BODY_LIMIT,
    answer: (req, res, raw, requestId) =>
      serve(deps, tools, views, sessionSkills, modern, req, res, raw, requestId).catch((error: unknown) => {
        // A defect here must cost one request, never the process (an unhandled rejection would).
        deps.log.error(
          { err: { message: error instanceof Error ? error.message : String(error) } },
          'mcp fast path failed',
        );
        if (res.headersSent) res.destroy();
        else {
          res.writeHead(500, { 'content-type': 'application/json', [NOSNIFF[0]]: NOSNIFF[1] });
          res.end('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":null}');
        }
        return true;
      }),
  };
}

async function serve(
  deps: McpFastPathDeps,
  tools: ToolAnswers,
  views: ViewReads,
  sessionSkills: SkillPages,
  modern: ModernAnswers,
  req: IncomingMessage,
  res: ServerResponse,
  raw: Buffer,
  requestId: string,
): Promise<boolean> {
  const decline = (gate?: GateOutcome): false => {
    if (gate) (req as IncomingMessage & { [GATE_OUTCOME]?: GateOutcome })[GATE_OUTCOME] = gate;
    return false;
  };
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return decline();
  }
  // Nested too deep for anything to walk: the route gives the JSON-RPC error (json-rpc-depth.ts).
  if (checkJsonDepth(body)) return decline();
  const method = typeof body === 'object' && body !== null ? (body as { method?: unknown }).method : undefined;
  if (method !== 'tools/list' && method !== 'tools/call' && method !== 'resources/read' && method !== 'skills/list')
    return decline();

  let caller: CallerInfo;
  try {
    caller = await deps.gate({ headers: req.headers, url: '/mcp', body }, requestId);
  } catch (error) {
    return decline({ error });
  }
  const sessionId = req.headers['mcp-session-id'];
  // A session request is answered here only on a live session of this caller held by this process.
  const session = typeof sessionId === 'string' ? deps.useLiveSession(sessionId, caller.actor.subject) : undefined;
  if (sessionId !== undefined && !session) return decline({ caller });

  // The response closing before we answered means the client went away: cancel the tool.
  const cancel = new CancelOnClose();
  res.once('close', cancel.onClose);
  let answer: Buffer[] | undefined;
  try {
    answer = await (sessionId === undefined
      ? modern.answer(req.headers, body, caller, cancel)
      : answerOnSession(tools, views, sessionSkills, session?.capabilities, req.headers, body, caller, cancel));
  } catch (error) {
    return decline({ error });
  } finally {
    res.off('close', cancel.onClose);
  }
  if (answer === undefined) return decline({ caller });

  let length = 0;
  for (const chunk of answer) length += chunk.length;
  const headers =
    sessionId === undefined
      ? ['content-type', 'application/json', 'content-length', String(length), 'x-request-id', requestId, ...NOSNIFF]
      : [
          ...NOSNIFF,
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
  return true;
}

import type { IncomingHttpHeaders } from 'node:http';
import { type ClientCapabilities, isSpecType } from '@modelcontextprotocol/server';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol-versions.js';
import type { CallerInfo } from '../server.js';
import { rendersViews } from '../views.js';
import { prewrittenResultJson } from './result-json.js';
import type { SkillPages } from './skill-pages.js';
import { acceptsJsonAndEventStream, type Cancellation, header, type ToolAnswers } from './tool-answers.js';
import type { ViewReads } from './view-reads.js';

const SSE_RESULT_OPEN = Buffer.from('event: message\ndata: {"result":');

/**
 * The 2025-era answers to a plain `tools/list`, read-only `tools/call`, `resources/read` of a
 * view or `skills/list` on a live session this process holds, framed as the one-message event
 * stream the SDK session transport answers with. The answer goes out in one write once the tool
 * has finished, so there is no partial stream to resume; requests that ask for progress (a
 * `_meta.progressToken`) or anything else that can stream go through the SDK transport, whose
 * event ids let a client resume (SEP-1699).
 */
export async function answerOnSession(
  tools: ToolAnswers,
  views: ViewReads,
  /** skills/list pages as this era answers them. */
  skillPages: SkillPages,
  /** What the session's client declared at initialize (MCP Apps support decides the listing). */
  capabilities: ClientCapabilities | undefined,
  headers: IncomingHttpHeaders,
  body: unknown,
  caller: CallerInfo,
  cancel: Cancellation,
): Promise<Buffer[] | undefined> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  if (message.jsonrpc !== '2.0' || (typeof message.id !== 'string' && typeof message.id !== 'number')) return undefined;
  if (
    message.method !== 'tools/list' &&
    message.method !== 'tools/call' &&
    message.method !== 'resources/read' &&
    message.method !== 'skills/list'
  )
    return undefined;
  const id = message.id;
  if (!acceptsJsonAndEventStream(headers)) return undefined;
  if (!LEGACY_PROTOCOL_VERSIONS.includes(header(headers, 'mcp-protocol-version') ?? '')) return undefined;
  const params = (message.params ?? {}) as Record<string, unknown>;
  if (typeof params !== 'object' || Array.isArray(params)) return undefined;
  const meta = params._meta;
  if (meta !== undefined && (typeof meta !== 'object' || meta === null || Object.keys(meta).length > 0))
    return undefined;

  let result: Buffer | undefined;
  if (message.method === 'resources/read') {
    if (Object.keys(params).some((key) => key !== 'uri') || !isSpecType.ReadResourceRequest(message)) return undefined;
    result = views.result('legacy', params.uri);
    if (!result) return undefined;
  } else if (message.method === 'skills/list') {
    if (Object.keys(params).some((key) => key !== 'cursor' && key !== '_meta')) return undefined;
    result = await skillPages.json(caller, params.cursor);
    if (!result) return undefined;
  } else if (message.method === 'tools/list') {
    if (Object.keys(params).length > 0 || !isSpecType.ListToolsRequest(message)) return undefined;
    result = await tools.serializedListing('legacy', caller, rendersViews(capabilities));
    if (!result) return undefined;
  } else {
    const answer = await tools.runReadOnly(message, params, caller, cancel);
    if (answer === undefined) return undefined;
    result = Buffer.from(prewrittenResultJson(answer) ?? JSON.stringify(answer));
  }
  return [SSE_RESULT_OPEN, result, Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n\n`)];
}

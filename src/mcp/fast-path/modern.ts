import type { IncomingHttpHeaders } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type CallToolResult,
  type ClientCapabilities,
  classifyInboundRequest,
  isSpecType,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import { MODERN_PROTOCOL_VERSION } from '../protocol-versions.js';
import { type CallerInfo, serverIdentity } from '../server.js';
import { SKILLS_CACHE_HINT } from '../skills-extension.js';
import { rendersViews } from '../views.js';
import { prewrittenResultJson } from './result-json.js';
import { SkillPages } from './skill-pages.js';
import { acceptsJsonAndEventStream, type Cancellation, header, type ToolAnswers } from './tool-answers.js';
import type { ViewReads } from './view-reads.js';

const RESULT_OPEN = Buffer.from('{"result":');
/** What the SDK adds to a modern result (its cache hint of its own is absent for tools/call). */
const MODERN_RESULT_TAIL = ',"resultType":"complete"';
/** The `_meta` keys a plain request carries; anything else (progressToken, logLevel, …) goes the SDK way. */
const PLAIN_META_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);

/**
 * The 2026-07-28 answers to the two hot requests, `tools/list` and `tools/call` of a read-only
 * registry tool, without building an SDK server per request.
 *
 * It takes only the plain, valid case and declines everything else to the SDK path, which then gives
 * the exact answer the spec names: the request must classify as a modern request with the SDK's own
 * `classifyInboundRequest` (the validation ladder: JSON-RPC shape, envelope, method registry, params,
 * standard headers), match its spec schema (`isSpecType`), carry headers that equal the body, a
 * `_meta` with nothing but the envelope keys, and for a call: a known read-only registry tool the
 * caller's role allows, with arguments its input schema accepts.
 */
export class ModernAnswers {
  /** The modern-era serialization of a reused answer (the same object serializes the same). */
  private readonly modernBytes = new WeakMap<CallToolResult, Buffer>();
  /** skills/list pages with what follows a modern page's entries: cache hint, resultType, serverInfo. */
  private readonly skillPages: SkillPages;
  /** The serverInfo member the SDK adds to a modern result's `_meta`, as JSON. */
  private readonly serverInfoMember: string;

  constructor(
    private readonly tools: ToolAnswers,
    private readonly views: ViewReads,
  ) {
    this.serverInfoMember = `${JSON.stringify(SERVER_INFO_META_KEY)}:${JSON.stringify(serverIdentity(tools.deps))}`;
    const hint = `,"ttlMs":${SKILLS_CACHE_HINT.ttlMs},"cacheScope":${JSON.stringify(SKILLS_CACHE_HINT.cacheScope)}`;
    this.skillPages = new SkillPages(tools.deps, `${hint}${MODERN_RESULT_TAIL},"_meta":{${this.serverInfoMember}}`);
  }

  /**
   * The JSON body of the answer as the chunks to write in order (a listing is not copied per
   * request), or undefined when the SDK path must answer this request.
   */
  async answer(
    headers: IncomingHttpHeaders,
    body: unknown,
    caller: CallerInfo,
    cancel: Cancellation,
  ): Promise<Buffer[] | undefined> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const method = (body as { method?: unknown }).method;
    if (method !== 'tools/list' && method !== 'tools/call' && method !== 'resources/read' && method !== 'skills/list')
      return undefined;
    if (!acceptsJsonAndEventStream(headers)) return undefined;
    const protocolVersionHeader = header(headers, 'mcp-protocol-version');
    const mcpMethodHeader = header(headers, 'mcp-method');
    const mcpNameHeader = header(headers, 'mcp-name');
    if (protocolVersionHeader !== MODERN_PROTOCOL_VERSION || mcpMethodHeader !== method) return undefined;

    const outcome = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader,
      mcpMethodHeader,
      mcpNameHeader,
      body,
    });
    if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return undefined;
    const message = outcome.message;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = params._meta as Record<string, unknown> | undefined;
    if (!meta || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION) return undefined;
    if (Object.keys(meta).some((key) => !PLAIN_META_KEYS.has(key))) return undefined;

    const result =
      method === 'tools/list'
        ? await this.list(message, params, mcpNameHeader, caller)
        : method === 'skills/list'
          ? await this.skills(params, mcpNameHeader, caller)
          : method === 'resources/read'
            ? this.read(message, params, mcpNameHeader)
            : await this.call(message, params, mcpNameHeader, caller, cancel);
    if (result === undefined) return undefined;
    return [RESULT_OPEN, result, Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`)];
  }

  private async list(
    message: unknown,
    params: Record<string, unknown>,
    nameHeader: string | undefined,
    caller: CallerInfo,
  ): Promise<Buffer | undefined> {
    // A cursor, or any other parameter, is the SDK's to interpret.
    if (nameHeader !== undefined || Object.keys(params).some((key) => key !== '_meta')) return undefined;
    if (!isSpecType.ListToolsRequest(message)) return undefined;
    const meta = params._meta as Record<string, unknown>;
    const capabilities = meta[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    return this.tools.serializedListing('modern', caller, rendersViews(capabilities));
  }

  /**
   * skills/list as the SDK's Skills extension answers it on 2026-07-28 (the same entries from the
   * same catalog, its cache hint, resultType and serverInfo), without a server per request.
   */
  private skills(
    params: Record<string, unknown>,
    nameHeader: string | undefined,
    caller: CallerInfo,
  ): Promise<Buffer | undefined> | undefined {
    if (nameHeader !== undefined || Object.keys(params).some((key) => key !== '_meta' && key !== 'cursor')) return;
    return this.skillPages.json(caller, params.cursor);
  }

  private read(message: unknown, params: Record<string, unknown>, nameHeader: string | undefined): Buffer | undefined {
    // The name header carries the URI for resources/read; anything beyond the URI is the SDK's.
    if (nameHeader !== params.uri || Object.keys(params).some((key) => key !== '_meta' && key !== 'uri'))
      return undefined;
    if (!isSpecType.ReadResourceRequest(message)) return undefined;
    return this.views.result('modern', params.uri);
  }

  private async call(
    message: unknown,
    params: Record<string, unknown>,
    nameHeader: string | undefined,
    caller: CallerInfo,
    cancel: Cancellation,
  ): Promise<Buffer | undefined> {
    const name = params.name;
    if (typeof name !== 'string' || nameHeader !== name) return undefined;
    const result = await this.tools.runReadOnly(message, params, caller, cancel);
    if (result === undefined) return undefined;
    const known = this.modernBytes.get(result);
    if (known) return known;
    const json =
      prewrittenResultJson(result, this.serverInfoMember, MODERN_RESULT_TAIL) ??
      JSON.stringify({
        ...result,
        resultType: 'complete',
        _meta: { ...result._meta, [SERVER_INFO_META_KEY]: serverIdentity(this.tools.deps) },
      });
    const bytes = Buffer.from(json);
    if (Object.isFrozen(result)) this.modernBytes.set(result, bytes);
    return bytes;
  }
}

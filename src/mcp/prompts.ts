import { randomUUID } from 'node:crypto';
import {
  type CompleteResult,
  type GetPromptResult,
  type ListPromptsResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { retryReadOnLoss } from '../platform/db/connection-loss.js';
import type { RequestContext } from '../platform/context/request-context.js';
import { AppError, NotFoundError, ValidationError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { type CallerInfo, callerOf } from './caller.js';
import type { McpServerDeps } from './server-deps.js';
import { PROMPT_NOT_FOUND } from './kit/prompt-catalog.js';

type StoredHandler = (request: unknown, ctx: ServerContext) => Promise<unknown>;

interface GetPromptRequest {
  params: { name: string; arguments?: Record<string, string> };
}
interface CompleteRequest {
  params: {
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    argument: { name: string; value: string };
    context?: { arguments?: Record<string, string> };
  };
}

/**
 * prompts/list, prompts/get and completion/complete over the registry's prompt catalog and value
 * completer, as low-level handlers: the prompts depend on the caller (grants), so they cannot be
 * registered once per server with McpServer.registerPrompt. What the SDK's own handlers answer
 * (prompts an extension registered, the conformance fixtures) is kept: listed on the first page,
 * and asked for any name or template the catalog does not know.
 */
export function installPromptHandlers(server: McpServer, deps: McpServerDeps, boundCaller?: CallerInfo): void {
  const { prompts, completer } = deps.registry;
  if (!prompts || !completer) return;
  // The SDK exposes registered handlers only through this protected accessor.
  const protocol = server.server as unknown as { _getRequestHandler(method: string): StoredHandler | undefined };
  const sdkList = protocol._getRequestHandler('prompts/list');
  const sdkGet = protocol._getRequestHandler('prompts/get');
  const sdkComplete = protocol._getRequestHandler('completion/complete');
  const contextOf = (ctx: ServerContext): RequestContext => {
    const caller = callerOf(ctx, boundCaller);
    const client = server.server.getClientVersion();
    return {
      actor: caller.actor,
      requestId: caller.requestId,
      clock: deps.clock,
      log: deps.log,
      via: 'mcp',
      ...(client ? { client: { name: client.name, version: client.version } } : {}),
    };
  };

  server.server.setRequestHandler('prompts/list', async (request, ctx) => {
    const cursor = request.params?.cursor;
    const page = await answer(deps.log, () => prompts.list(contextOf(ctx), cursor));
    const extra = cursor === undefined && sdkList ? ((await sdkList(request, ctx)) as ListPromptsResult).prompts : [];
    return { prompts: [...extra, ...page.prompts], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  server.server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name, arguments: args } = (request as GetPromptRequest).params;
    try {
      return await answer(deps.log, () => prompts.get(contextOf(ctx), name, args ?? {}), true);
    } catch (error) {
      if (notFound(error) && sdkGet) return (await sdkGet(request, ctx)) as GetPromptResult;
      throw error;
    }
  });

  server.server.setRequestHandler('completion/complete', async (request, ctx) => {
    const { ref, argument, context } = (request as CompleteRequest).params;
    const given = context?.arguments ?? {};
    const fallback = async (what: string): Promise<CompleteResult> => {
      if (sdkComplete) return (await sdkComplete(request, ctx)) as CompleteResult;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${what} not found`);
    };
    if (ref.type === 'ref/prompt') {
      try {
        const found = await answer(deps.log, () => prompts.complete(contextOf(ctx), ref.name, argument, given), true);
        return { completion: { ...found } };
      } catch (error) {
        if (notFound(error)) return fallback(`Prompt ${ref.name}`);
        throw error;
      }
    }
    const resource = deps.registry.resources.find((r) => r.uriTemplate === ref.uri);
    if (!resource) return fallback(`Resource template ${ref.uri}`);
    const kind = resource.variables?.[argument.name];
    if (!kind) return { completion: { values: [], total: 0, hasMore: false } };
    const found = await answer(deps.log, () =>
      completer.complete(contextOf(ctx), {
        kind,
        value: argument.value,
        project: given.project_id,
        permission: resource.permission,
      }),
    );
    return { completion: { ...found } };
  });
}

/** A catalog NotFoundError for an unknown prompt (the SDK's handler may know the name). */
function notFound(error: unknown): boolean {
  return error instanceof ProtocolError && (error.data as { code?: unknown } | undefined)?.code === PROMPT_NOT_FOUND;
}

/**
 * Runs a read for a prompt handler (retried once on a lost connection, as read-only tools are) and
 * turns its failure into the protocol error a client can act on: a refused or invalid request is
 * -32602 with our stable code in `data` (a prompt the caller cannot use is the spec's "invalid
 * prompt name", whether or not it exists); anything unexpected is -32603 with an incident id, its
 * cause only in the log.
 */
export async function answer<T>(log: Logger, read: () => Promise<T>, byName = false): Promise<T> {
  try {
    return await retryReadOnLoss(read);
  } catch (error) {
    if (error instanceof AppError) {
      const data = { code: error.code, ...(error instanceof ValidationError ? { errors: error.errors } : {}) };
      const client = error.status < 500 && error.status !== 429;
      const message =
        byName && error instanceof NotFoundError && error.code === PROMPT_NOT_FOUND
          ? error.message
          : `${error.code}: ${error.message}${error.hint ? ` ${error.hint}` : ''}`;
      throw new ProtocolError(
        client ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
        message,
        data,
      );
    }
    const incident = randomUUID();
    log.error({ err: error, incident }, 'prompt request failed');
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `The request failed unexpectedly (incident ${incident}). Retry once; if it fails again, report the incident id.`,
    );
  }
}

import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type SpecTypeName,
  specTypeSchemas,
} from '@modelcontextprotocol/server';

type StoredHandler = (request: unknown, ctx: unknown) => Promise<unknown>;

/** The spec request type of each protocol method whose params a client may get wrong. */
const REQUEST_TYPES: Record<string, SpecTypeName> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'tools/list': 'ListToolsRequest',
  'logging/setLevel': 'SetLevelRequest',
  'completion/complete': 'CompleteRequest',
};

/**
 * The SDK validates a protocol request's params against the spec inside the handler it stores and,
 * when they do not fit, throws a plain Error whose message is zod's multi-line dump: the client
 * gets -32603 Internal error. It is the client's mistake: -32602 with one line naming the parameter.
 * Every handler the server holds is wrapped once, after everything is registered (call it again
 * after registering more); the wrapper costs
 * nothing unless the handler fails without a JSON-RPC code, and then checks the request against the
 * spec type to tell a bad request from a failure of ours (which stays -32603).
 */
export function answerInvalidParamsAsSuch(server: McpServer): void {
  // The SDK keeps its handlers in this protected map; there is no public way to wrap them.
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, StoredHandler> })._requestHandlers;
  for (const [method, handler] of handlers) {
    const type = REQUEST_TYPES[method];
    if (!type || wrapped.has(handler)) continue;
    const wrapper: StoredHandler = async (request, ctx) => {
      try {
        return await handler(request, ctx);
      } catch (error) {
        if (hasJsonRpcCode(error)) throw error;
        const problem = firstProblem(type, request);
        if (problem === undefined) throw error;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${problem}`);
      }
    };
    wrapped.add(wrapper);
    handlers.set(method, wrapper);
  }
}

/** Handlers already wrapped: a server that registers more handlers later is wrapped again. */
const wrapped = new WeakSet<StoredHandler>();

function hasJsonRpcCode(error: unknown): boolean {
  return typeof error === 'object' && error !== null && Number.isSafeInteger((error as { code?: unknown }).code);
}

/** `params.uri: expected string, received number`, or undefined when the request fits its type. */
function firstProblem(type: SpecTypeName, request: unknown): string | undefined {
  const outcome = specTypeSchemas[type]['~standard'].validate(request);
  if (!('issues' in outcome) || !outcome.issues || outcome.issues.length === 0) return undefined;
  const issue = outcome.issues[0]!;
  const path = (issue.path ?? [])
    .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
    .join('.');
  const message = issue.message.replace(/\s+/g, ' ').slice(0, 160);
  return path ? `${path}: ${message}` : message;
}

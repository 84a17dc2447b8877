import { randomBytes, randomUUID } from 'node:crypto';
import {
  acceptedContent,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * 2026-07-28 fixtures of the conformance suite's 0.2.0 line: multi-round-trip (input_required)
 * tools and prompt, and the diagnostic tools of its stateless-server scenario. Test support only.
 */

// One key per process: the suite talks to one server process, and a restart simply invalidates
// outstanding flows, which is what a fixture wants.
const codec = createRequestStateCodec<State>({ key: randomBytes(32) });

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const nameSchema = z.object({ name: z.string() });

/**
 * Server options the fixtures need: the SDK runs this hook before the handler and answers a
 * requestState that fails it with -32602 (a tool handler cannot: McpServer turns whatever a tool
 * throws into an isError result).
 */
export const mrtrServerOptions = { requestState: { verify: verifyState } };

type State = { round: number; name?: string };

/**
 * The SDK runs the hook once per stored tools/call handler. src/mcp/server.ts wraps the SDK's
 * tools/call handler in a second one (the role check), so the hook runs twice, and the inner run
 * insists on a string. The outer run therefore answers with a one-time random token for the
 * verified payload, which only the inner run (or the handler) can redeem; a client cannot forge one.
 */
const verified = new Map<string, State>();

async function verifyState(state: string, ctx: ServerContext): Promise<string | State> {
  const redeemed = verified.get(state);
  if (redeemed) {
    verified.delete(state);
    return redeemed;
  }
  const payload = await codec.verify(state, ctx);
  const token = `verified:${randomUUID()}`;
  verified.set(token, payload);
  // Never kept beyond the request that minted it, whether or not it is redeemed.
  setTimeout(() => verified.delete(token), 60_000).unref();
  return token;
}

/** The payload the hook verified, or undefined on a first round. */
function verifiedState(ctx: ServerContext): State | undefined {
  const value = ctx.mcpReq.requestState<string | State>();
  if (typeof value !== 'string') return value;
  const payload = verified.get(value);
  verified.delete(value);
  return payload;
}

function clientCapabilities(ctx: ServerContext): Record<string, unknown> | undefined {
  return ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities' as never] as
    | Record<string, unknown>
    | undefined;
}

export function registerMrtrFixtures(server: McpServer): void {
  server.registerTool(
    'test_input_required_result_elicitation',
    { description: 'Asks for a name through an input_required round (conformance fixture).' },
    async (ctx: ServerContext) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_name', nameSchema);
      if (!answer) {
        return inputRequired({
          inputRequests: {
            user_name: inputRequired.elicit({
              message: 'What is your name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            }),
          },
        });
      }
      return text(`Hello, ${answer.name}!`);
    },
  );

  server.registerTool(
    'test_input_required_result_sampling',
    { description: 'Asks the client to sample through an input_required round (conformance fixture).' },
    async (ctx: ServerContext) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'capital_question');
      if (view.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            capital_question: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
              maxTokens: 100,
            }),
          },
        });
      }
      const content = Array.isArray(view.result.content) ? view.result.content[0] : view.result.content;
      return text(`Sampling said: ${content && content.type === 'text' ? content.text : JSON.stringify(content)}`);
    },
  );

  server.registerTool(
    'test_input_required_result_list_roots',
    { description: 'Asks for the client roots through an input_required round (conformance fixture).' },
    async (ctx: ServerContext) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'client_roots');
      if (view.kind !== 'roots') return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
      return text(`Roots: ${view.roots.map((r) => r.uri).join(', ') || '(none)'}`);
    },
  );

  const confirm = inputRequired.elicit({
    message: 'Please confirm',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  for (const name of ['test_input_required_result_request_state', 'test_input_required_result_tampered_state']) {
    server.registerTool(
      name,
      { description: 'Round-trips an integrity-protected requestState (conformance fixture).' },
      async (ctx: ServerContext) => {
        const state = verifiedState(ctx);
        const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
        if (!state || !answer)
          return inputRequired({ inputRequests: { confirm }, requestState: await codec.mint({ round: 1 }) });
        return text(`state-ok: confirmed=${String(answer.ok)}`);
      },
    );
  }

  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'Asks for elicitation, sampling and roots at once (conformance fixture).' },
    async (ctx: ServerContext) => {
      const state = verifiedState(ctx);
      const responses = ctx.mcpReq.inputResponses;
      const complete =
        state &&
        inputResponse(responses, 'user_name').kind === 'elicit' &&
        inputResponse(responses, 'greeting').kind === 'sampling' &&
        inputResponse(responses, 'client_roots').kind === 'roots';
      if (!complete) {
        return inputRequired({
          inputRequests: {
            user_name: inputRequired.elicit({
              message: 'What is your name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            }),
            greeting: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
              maxTokens: 50,
            }),
            client_roots: inputRequired.listRoots(),
          },
          requestState: await codec.mint({ round: 1 }),
        });
      }
      return text('All inputs received');
    },
  );

  server.registerTool(
    'test_input_required_result_multi_round',
    { description: 'Two elicitation rounds with evolving requestState (conformance fixture).' },
    async (ctx: ServerContext) => {
      const state = verifiedState(ctx);
      const step1 = acceptedContent(ctx.mcpReq.inputResponses, 'step1', nameSchema);
      const step2 = acceptedContent(ctx.mcpReq.inputResponses, 'step2', z.object({ color: z.string() }));
      if (state?.round === 2 && step2)
        return text(`Hello ${state.name ?? 'there'}, your favorite color is ${step2.color}`);
      if (state?.round === 1 && step1) {
        return inputRequired({
          inputRequests: {
            step2: inputRequired.elicit({
              message: 'Step 2: What is your favorite color?',
              requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
            }),
          },
          requestState: await codec.mint({ round: 2, name: step1.name }),
        });
      }
      return inputRequired({
        inputRequests: {
          step1: inputRequired.elicit({
            message: 'Step 1: What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          }),
        },
        requestState: await codec.mint({ round: 1 }),
      });
    },
  );

  server.registerTool(
    'test_input_required_result_capabilities',
    { description: 'Asks only for what the client declared it supports (conformance fixture).' },
    async (ctx: ServerContext) => {
      const caps = clientCapabilities(ctx) ?? {};
      const requests: Record<string, ReturnType<typeof inputRequired.listRoots>> = {};
      if ('elicitation' in caps)
        requests.user_name = inputRequired.elicit({
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
      if ('sampling' in caps)
        requests.greeting = inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
          maxTokens: 50,
        });
      if ('roots' in caps) requests.client_roots = inputRequired.listRoots();
      if (Object.keys(requests).length === 0 || Object.keys(ctx.mcpReq.inputResponses ?? {}).length > 0)
        return text('Nothing more is needed');
      return inputRequired({ inputRequests: requests });
    },
  );

  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'A prompt that needs elicited context first (conformance fixture).' },
    async (ctx: ServerContext) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_context', z.object({ context: z.string() }));
      if (!answer) {
        return inputRequired({
          inputRequests: {
            user_context: inputRequired.elicit({
              message: 'What context should the prompt use?',
              requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
            }),
          },
        });
      }
      return {
        messages: [
          { role: 'user' as const, content: { type: 'text' as const, text: `Use this context: ${answer.context}` } },
        ],
      };
    },
  );

  // Diagnostic tools of the stateless-server scenario (SEP-2575).
  server.registerTool(
    'test_streaming_elicitation',
    {
      description:
        'Needs input: answers with an input_required result, never a server-to-client request (conformance fixture).',
    },
    async (ctx: ServerContext) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
      if (!answer) return inputRequired({ inputRequests: { confirm } });
      return text('Confirmed');
    },
  );
  server.registerTool(
    'test_missing_capability',
    { description: 'Needs the client sampling capability (conformance fixture).' },
    async (ctx: ServerContext) => {
      if (!('sampling' in (clientCapabilities(ctx) ?? {})))
        throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { sampling: {} } });
      return text('The client declared sampling');
    },
  );
  server.registerTool(
    'test_logging_tool',
    { description: 'Emits log messages at several levels (conformance fixture).' },
    async (ctx: ServerContext) => {
      await ctx.mcpReq.log('info', 'test_logging_tool: info message');
      await ctx.mcpReq.log('error', 'test_logging_tool: error message');
      return text('Logged');
    },
  );
}

import {
  completable,
  fromJsonSchema,
  ResourceTemplate,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpExtension } from '../mcp/server.js';
import { mrtrServerOptions, registerMrtrFixtures } from './conformance-mrtr.js';

/**
 * The fixture tools, resources and prompts that the official conformance suite
 * (`@modelcontextprotocol/conformance`, server mode) calls by name. Test support only: registered
 * when MCP_CONFORMANCE_FIXTURES=true (src/cli/main.ts serve) and by nothing else. Names, texts and
 * shapes are the ones the suite's scenario descriptions fix; nothing here touches our storage.
 */

// 1x1 red pixel PNG.
export const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid, silent 8 kHz mono 16-bit WAV with 8 samples (built, not pasted, so it stays well-formed). */
function silentWav(): string {
  const samples = 8;
  const data = samples * 2;
  const buf = Buffer.alloc(44 + data);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + data, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(8000, 24);
  buf.writeUInt32LE(16000, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(data, 40);
  return buf.toString('base64');
}
const WAV = silentWav();

const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/**
 * Sends a server-to-client request (elicitation, sampling) on the call's own response stream.
 * `ctx.mcpReq.elicitInput` / `requestSampling` leave the request unrelated to the call, so the SDK
 * transport writes it to the session's standalone GET stream, or, when that stream is not open yet,
 * only to the event store, where nothing delivers it: the conformance client opens its GET stream
 * in the background after initialize and sends tools/call at once, so on a busy machine the call
 * could come first and wait for an answer to a request the client never saw.
 */
const onThisCall = (ctx: ServerContext) => ({ relatedRequestId: ctx.mcpReq.id });

/** Adds every fixture to one server instance (applied through McpRegistry.extensions). */
export const registerConformanceFixtures: McpExtension = Object.assign(
  (server: McpServer): void => {
    registerContentTools(server);
    registerInteractiveTools(server);
    registerResources(server);
    registerPrompts(server);
    registerMrtrFixtures(server);
  },
  { serverOptions: mrtrServerOptions },
);

function registerContentTools(server: McpServer): void {
  server.registerTool(
    'test_simple_text',
    { description: 'Returns a simple text block (conformance fixture).' },
    async () => text('This is a simple text response for testing.'),
  );
  server.registerTool(
    'test_image_content',
    { description: 'Returns a 1x1 PNG image (conformance fixture).' },
    async () => ({
      content: [{ type: 'image' as const, data: PNG_1X1, mimeType: 'image/png' }],
    }),
  );
  server.registerTool(
    'test_audio_content',
    { description: 'Returns a short silent WAV (conformance fixture).' },
    async () => ({
      content: [{ type: 'audio' as const, data: WAV, mimeType: 'audio/wav' }],
    }),
  );
  server.registerTool(
    'test_embedded_resource',
    { description: 'Returns an embedded text resource (conformance fixture).' },
    async () => ({
      content: [
        {
          type: 'resource' as const,
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  );
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Returns text, image and resource blocks (conformance fixture).' },
    async () => ({
      content: [
        { type: 'text' as const, text: 'Multiple content types test:' },
        { type: 'image' as const, data: PNG_1X1, mimeType: 'image/png' },
        {
          type: 'resource' as const,
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool(
    'test_error_handling',
    { description: 'Always fails with isError (conformance fixture).' },
    async () => ({
      isError: true,
      content: [{ type: 'text' as const, text: 'This tool intentionally returns an error for testing' }],
    }),
  );
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: fromJsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        // SEP-2106 vocabulary (the 0.2 suite checks it is passed through): composition and conditionals.
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword, not a thenable
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      }),
    },
    async (args: unknown) => text(`Received: ${JSON.stringify(args)}`),
  );
}

function registerInteractiveTools(server: McpServer): void {
  server.registerTool(
    'test_tool_with_logging',
    { description: 'Sends three info log notifications while it runs (conformance fixture).' },
    async (ctx: ServerContext) => {
      await ctx.mcpReq.log('info', 'Tool execution started');
      await delay(50, ctx.mcpReq.signal);
      await ctx.mcpReq.log('info', 'Tool processing data');
      await delay(50, ctx.mcpReq.signal);
      await ctx.mcpReq.log('info', 'Tool execution completed');
      return text('Tool with logging executed successfully');
    },
  );
  server.registerTool(
    'test_tool_with_progress',
    { description: 'Reports progress 0, 50, 100 of 100 (conformance fixture).' },
    async (ctx: ServerContext) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const [i, progress] of [0, 50, 100].entries()) {
        if (i > 0) await delay(50, ctx.mcpReq.signal);
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 100, message: `Completed step ${progress}` },
          });
        }
      }
      return text('Tool with progress executed successfully');
    },
  );
  server.registerTool(
    'test_sampling',
    {
      description: 'Asks the client to sample an LLM (conformance fixture).',
      inputSchema: z.object({ prompt: z.string() }),
    },
    async ({ prompt }, ctx) => {
      const result = await ctx.mcpReq.requestSampling(
        { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
        onThisCall(ctx),
      );
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return text(`LLM response: ${content && content.type === 'text' ? content.text : JSON.stringify(content)}`);
    },
  );
  server.registerTool(
    'test_elicitation',
    {
      description: 'Asks the user for input through the client (conformance fixture).',
      inputSchema: z.object({ message: z.string() }),
    },
    async ({ message }, ctx) => {
      const result = await ctx.mcpReq.elicitInput(
        {
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        },
        onThisCall(ctx),
      );
      return text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );
  server.registerTool(
    'test_elicitation_sep1034_defaults',
    { description: 'Elicitation with defaults for every primitive type (conformance fixture).' },
    async (ctx: ServerContext) => {
      const result = await ctx.mcpReq.elicitInput(
        {
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: {
                type: 'string',
                description: 'User status',
                enum: ['active', 'inactive', 'pending'],
                default: 'active',
              },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        },
        onThisCall(ctx),
      );
      return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );
  server.registerTool(
    'test_elicitation_sep1330_enums',
    { description: 'Elicitation with every enum variant (conformance fixture).' },
    async (ctx: ServerContext) => {
      const result = await ctx.mcpReq.elicitInput(
        {
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: {
                type: 'string',
                description: 'Untitled single-select',
                enum: ['option1', 'option2', 'option3'],
              },
              titledSingle: {
                type: 'string',
                description: 'Titled single-select',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                description: 'Legacy titled enum',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                description: 'Untitled multi-select',
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                description: 'Titled multi-select',
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
            required: [],
          },
        },
        onThisCall(ctx),
      );
      return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );
  // SEP-1699: the server closes this call's SSE stream mid-call; the client resumes with
  // Last-Event-ID and receives the result from the event store.
  server.registerTool(
    'test_reconnection',
    { description: 'Closes its SSE stream mid-call to test resumption (conformance fixture).' },
    async (ctx: ServerContext) => {
      await delay(100, ctx.mcpReq.signal);
      ctx.http?.closeSSE?.();
      await delay(200, ctx.mcpReq.signal);
      return text('Reconnection test completed successfully');
    },
  );
}

function registerResources(server: McpServer): void {
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource (conformance fixture).', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static PNG resource (conformance fixture).', mimeType: 'image/png' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG_1X1 }],
    }),
  );
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'A resource clients subscribe to (conformance fixture).', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content' }],
    }),
  );
  server.registerResource(
    'template-data',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'A templated resource (conformance fixture).', mimeType: 'application/json' },
    async (uri, variables) => {
      const id = String(variables.id);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
          },
        ],
      };
    },
  );
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'test_simple_prompt',
    { description: 'A prompt without arguments (conformance fixture).' },
    async () => ({
      messages: [
        { role: 'user' as const, content: { type: 'text' as const, text: 'This is a simple prompt for testing.' } },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments (conformance fixture).',
      argsSchema: z.object({
        arg1: completable(z.string().describe('First test argument'), (value) =>
          ['paris', 'park', 'party'].filter((v) => v.startsWith(value ?? '')),
        ),
        arg2: z.string().describe('Second test argument'),
      }),
    },
    async ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds a resource (conformance fixture).',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    async ({ resourceUri }) => ({
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'resource' as const,
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: 'Please process the embedded resource above.' },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_image',
    { description: 'A prompt with an image (conformance fixture).' },
    async () => ({
      messages: [
        { role: 'user' as const, content: { type: 'image' as const, data: PNG_1X1, mimeType: 'image/png' } },
        { role: 'user' as const, content: { type: 'text' as const, text: 'Please analyze the image above.' } },
      ],
    }),
  );
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { connectModern } from '../support/mcp-clients.js';
import { CONTEXT_HUB_TOOL_ORDER, inOrder } from '../../src/modules/index.js';
import type { AnyToolSpec } from '../../src/mcp/kit/tool.js';

/**
 * Invariants every tool must keep, checked over whatever the running app registers, so a new tool
 * that forgets its description, annotations or outputSchema fails here.
 */
describe('MCP tool registry invariants', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService('pglite');
  });
  afterAll(async () => service?.close());

  it('every tool has a description an agent can act on, an inputSchema and all four annotations', async () => {
    const client = await connectModern(service.url, undefined, { apps: true });
    const { tools } = await client.listTools();
    expect(tools.length).toBe(service.app.registry.tools.length);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
      }
    }
    await client.close();
  });

  it('enveloped tools declare an outputSchema whose every data key may be withheld; raw tools declare none', async () => {
    const client = await connectModern(service.url, undefined, { apps: true });
    const { tools } = await client.listTools();
    for (const spec of service.app.registry.tools) {
      const listed = tools.find((t) => t.name === spec.name)!;
      if (!spec.dataShape) {
        expect(listed.outputSchema, spec.name).toBeUndefined();
        continue;
      }
      type Branch = { $ref?: string; properties?: { withheld?: unknown } };
      const schema = listed.outputSchema as {
        properties: { data: { properties: Record<string, { anyOf?: Branch[] }> } };
        $defs?: Record<string, Branch>;
      };
      // The descriptor is written once per tool under $defs and referenced from each key.
      const resolve = (branch: Branch): Branch =>
        branch.$ref?.startsWith('#/$defs/') ? (schema.$defs?.[branch.$ref.slice(8)] ?? {}) : branch;
      for (const key of Object.keys(spec.dataShape)) {
        const branches = schema.properties.data.properties[key]?.anyOf ?? [];
        expect(
          branches.some((branch) => resolve(branch).properties?.withheld !== undefined),
          `${spec.name}.data.${key}`,
        ).toBe(true);
      }
    }
    await client.close();
  });

  it('tools/list gives the hub tools in their named reading order, one after another', async () => {
    const client = await connectModern(service.url);
    const names = (await client.listTools()).tools.map((t) => t.name);
    const start = names.indexOf(CONTEXT_HUB_TOOL_ORDER[0]);
    expect(names.slice(start, start + CONTEXT_HUB_TOOL_ORDER.length)).toEqual([...CONTEXT_HUB_TOOL_ORDER]);
    await client.close();
  });

  it('the server instructions give agents the reading order', async () => {
    const client = await connectModern(service.url);
    const instructions = client.getInstructions() ?? '';
    expect(instructions.indexOf('search_context')).toBeGreaterThanOrEqual(0);
    expect(instructions.indexOf('search_context')).toBeLessThan(instructions.indexOf('get_procedure'));
    expect(instructions.indexOf('get_procedure')).toBeLessThan(instructions.indexOf('get_knowledge'));
    await client.close();
  });
});

describe('inOrder (tools placed by name)', () => {
  const tool = (name: string) => ({ name }) as AnyToolSpec;

  it('orders tools by the names given, whatever order the modules listed them in', () => {
    expect(inOrder([tool('b'), tool('c'), tool('a')], ['a', 'b', 'c']).map((t) => t.name)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a name no module registers and a tool the order leaves out', () => {
    expect(() => inOrder([tool('a')], ['a', 'z'])).toThrow(/z, which no module registers/);
    expect(() => inOrder([tool('a'), tool('b')], ['a'])).toThrow(/missing from the tool order: b/);
  });
});

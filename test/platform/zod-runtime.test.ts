// zod runs without its cycle memoizer in this service (src/platform/zod-runtime.ts). The setting
// only applies to schemas built after it, so these tests check that it reached the MCP SDK's
// schemas and ours, that the CLI entry loads it first, that a start reports it, and that parsing
// is unchanged by it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { classifyInboundRequest, isSpecType, specTypeSchemas } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { globalConfig } from 'zod/v4/core';
import { failureAccessorShared, NO_CYCLE_SUPPORT } from '../../src/platform/zod-runtime.js';
import { ProjectListOutput } from '../../src/modules/projects/index.js';
import { freePort, ROOT, runCli, stop } from '../support/process.js';

// zod's memoizer wraps a container schema's parse in a function of this name when the schema is built.
const memoized = (schema: { _zod: { parse: { name: string } } }) => schema._zod.parse.name === 'wrapped';

describe('zod without cycle support', () => {
  it("is the configured memoizer, and no SDK spec schema or schema of ours was built with zod's", () => {
    expect(globalConfig.memoizer).toBe(NO_CYCLE_SUPPORT);
    const sdk = Object.values(specTypeSchemas).filter(
      (schema) => typeof schema === 'object' && schema !== null && '_zod' in schema,
    );
    expect(sdk.length).toBeGreaterThan(100);
    expect(sdk.filter((schema) => memoized(schema as never))).toEqual([]);
    expect(memoized(ProjectListOutput as never)).toBe(false);
    // And one built now, after everything above was loaded.
    expect(memoized(z.object({ a: z.array(z.string()) }) as never)).toBe(false);
  });

  it('is set up by the first import of the CLI entry, before anything builds a schema', () => {
    const source = fs.readFileSync(new URL('../../src/cli.ts', import.meta.url), 'utf8');
    const firstImport = /^import .*$/m.exec(source)?.[0];
    expect(firstImport).toBe("import './platform/zod-runtime.js';");
  });

  it('is reported at start in one info line, with whether the install-time zod patch is in effect', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-zod-'));
    const port = await freePort();
    // The bin (dist/cli.js, no --import): the entry's own first import must be enough.
    const proc = runCli(['serve'], { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    try {
      // Logged before the store opens: the rest of the start is not needed (bounded poll).
      for (let i = 0; i < 2400 && !proc.output().includes('"msg":"zod runtime"'); i++) {
        if (proc.child.exitCode !== null) throw new Error(`serve exited early:\n${proc.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await stop(proc);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const lines = proc
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; level: number; zod?: unknown });
    const reports = lines.filter((line) => line.msg === 'zod runtime');
    const pinned = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson).dependencies
      .zod;
    expect(reports).toEqual([
      expect.objectContaining({
        level: 30,
        zod: { version: pinned, safe_parse_patched: true, cycle_memoizer_off: true },
      }),
    ]);
  });

  it("tells zod's own failure results from the patched ones", () => {
    const unpatched = () => {
      let error: Error | undefined;
      return {
        success: false,
        get error() {
          error ??= new Error('invalid');
          return error;
        },
      };
    };
    expect(failureAccessorShared(unpatched)).toBe(false);
    expect(failureAccessorShared(() => z.string().safeParse(1))).toBe(true);
  });

  it("parses the same: nested recursive values, and the SDK's verdicts on valid and invalid requests", () => {
    type Tree = { name: string; children: Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), children: z.array(tree) }));
    const input = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] };
    expect(tree.parse(input)).toEqual(input);
    expect(tree.safeParse({ name: 'a', children: [{ name: 1, children: [] }] }).success).toBe(false);

    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true } },
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
    };
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_projects', arguments: {}, _meta: meta },
    };
    const request = {
      httpMethod: 'POST',
      protocolVersionHeader: '2026-07-28',
      mcpMethodHeader: 'tools/call',
      mcpNameHeader: 'list_projects',
    };
    expect(classifyInboundRequest({ ...request, body })).toMatchObject({ kind: 'modern', messageKind: 'request' });
    expect(isSpecType.CallToolRequest(body)).toBe(true);
    const badMeta = {
      ...body,
      params: { ...body.params, _meta: { ...meta, 'io.modelcontextprotocol/clientInfo': { name: 1 } } },
    };
    expect(classifyInboundRequest({ ...request, body: badMeta })).toMatchObject({ kind: 'reject', httpStatus: 400 });
    expect(isSpecType.CallToolRequest({ ...body, params: { arguments: {} } })).toBe(false);
  });
});

type PackageJson = { dependencies: Record<string, string> };

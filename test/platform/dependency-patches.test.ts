// The patches scripts/patch-dependencies.mjs applies at install time: that they are in place in
// this install (a failure here means postinstall did not run, or a dependency changed under the
// patch and the patch needs review), and that patched code behaves as the original did.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const json = (file: string) => JSON.parse(fs.readFileSync(new URL(file, import.meta.url), 'utf8'));

describe('dependency patches', () => {
  it('are all applied in this install', () => {
    // --check writes nothing and exits non-zero when a patch is missing or no longer fits.
    const out = execFileSync(process.execPath, ['scripts/patch-dependencies.mjs', '--check'], { encoding: 'utf8' });
    expect(out).toContain('zod lazy safeParse failure: node_modules/zod/v4/core/parse.js patched');
    expect(out).toContain('zod lazy safeParse failure: node_modules/zod/v4/core/parse.cjs patched');
  });

  it('patch zod only at the exact version they were written for, which package.json pins', async () => {
    // @ts-expect-error: a plain .mjs script without type declarations
    const { PATCHES } = (await import('../../scripts/patch-dependencies.mjs')) as {
      PATCHES: { package: string; version: string }[];
    };
    const zod = PATCHES.find((patch) => patch.package === 'zod')!;
    expect(json('../../package.json').dependencies.zod).toBe(zod.version);
    expect(json('../../package-lock.json').packages[''].dependencies.zod).toBe(zod.version);
    expect(json('../../node_modules/zod/package.json').version).toBe(zod.version);
  });
});

describe("zod's safeParse failure, patched", () => {
  it('has the shape of the original: own enumerable success and error, nothing else enumerable', () => {
    const result = z.object({ a: z.string() }).safeParse({ a: 1 });
    expect(Object.keys(result)).toEqual(['success', 'error']);
    expect(result.success).toBe(false);
    const descriptor = Object.getOwnPropertyDescriptor(result, 'error');
    expect(descriptor?.enumerable).toBe(true);
    expect(typeof descriptor?.get).toBe('function');
    expect(result.error).toBeInstanceOf(z.ZodError);
    expect(result.error?.issues.map((issue) => [issue.code, issue.path])).toEqual([['invalid_type', ['a']]]);
    // Read twice: the same error object; spread and JSON see it like any property.
    expect(result.error).toBe(result.error);
    expect({ ...result }.error).toBe(result.error);
    expect(JSON.parse(JSON.stringify(result))).toMatchObject({ success: false, error: { name: 'ZodError' } });
  });

  it('builds the error only when it is read, once, and without keeping the input in it', () => {
    let messages = 0;
    const schema = z.string({
      error: () => {
        messages += 1;
        return 'not a string';
      },
    });
    const result = schema.safeParse(42);
    expect(messages).toBe(0);
    expect(result.error?.issues[0]?.message).toBe('not a string');
    expect(result.error?.issues[0]).not.toHaveProperty('input');
    void result.error;
    expect(messages).toBe(1);
  });

  it('takes a replacement error, as the original setter did', () => {
    const result = z.number().safeParse('x');
    const replacement = new z.ZodError([]);
    (result as { error: unknown }).error = replacement;
    expect(result.error).toBe(replacement);
  });

  it('is what safeParseAsync answers too, and success answers are untouched', async () => {
    const failed = await z.string().safeParseAsync(1);
    expect(Object.keys(failed)).toEqual(['success', 'error']);
    expect(failed.error?.issues[0]?.code).toBe('invalid_type');
    expect(z.string().safeParse('ok')).toEqual({ success: true, data: 'ok' });
  });
});

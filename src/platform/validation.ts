import type { z, ZodType } from 'zod';
import { ValidationError, type FieldViolation } from './errors.js';

export function violationsOf(error: z.ZodError): FieldViolation[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Parses input with a module's schema; every violation becomes one `errors[]` entry. */
export function parseInput<S extends ZodType>(schema: S, input: unknown, where?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const violations = violationsOf(result.error).map((v) => ({
    ...v,
    path: where ? (v.path ? `${where}.${v.path}` : where) : v.path,
  }));
  throw new ValidationError(violations);
}

const NUL = '\u0000';
const NUL_MESSAGE = 'contains the NUL character (U+0000), which no stored text can hold; remove it';
const SURROGATE_MESSAGE =
  'contains an unpaired UTF-16 surrogate (such as "\\ud800"), which is not Unicode text and cannot be stored; ' +
  'send well-formed text';
/** Deeper than any input we accept; the walk stops there rather than recurse without bound. */
const MAX_SCAN_DEPTH = 64;

// Node 20 has String.prototype.isWellFormed (V8 11.3); TypeScript's ES2022 library does not declare it.
declare global {
  interface String {
    isWellFormed(): boolean;
  }
}

/** The message for text no store can hold, or undefined when `text` is fine. */
function unstorable(text: string): string | undefined {
  if (text.includes(NUL)) return NUL_MESSAGE;
  // One-byte strings (most input) are well-formed without a scan.
  if (!text.isWellFormed()) return SURROGATE_MESSAGE;
  return undefined;
}

/**
 * Where a value holds text PostgreSQL cannot store, in a string or an object key: U+0000 (text and
 * jsonb cannot hold it: SQLSTATE 22021 / 22P05) or an unpaired surrogate such as `"\ud800"` (not
 * Unicode, so not valid UTF-8 once encoded: 22P02 on a jsonb column). Such input would otherwise
 * reach the store and fail there as an internal error instead of a 400 that names the field.
 * Checked once at each entry (REST routes, MCP tool calls) rather than in every schema, so no
 * schema can forget it.
 */
export function nulViolations(value: unknown, where: string): readonly FieldViolation[] {
  // Every request passes through here: the common answer is found without allocating.
  if (!containsUnstorable(value, 0)) return NONE;
  const found: FieldViolation[] = [];
  const walk = (node: unknown, path: string, depth: number): void => {
    if (typeof node === 'string') {
      const message = unstorable(node);
      if (message) found.push({ path, message });
      return;
    }
    if (typeof node !== 'object' || node === null || depth >= MAX_SCAN_DEPTH) return;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) walk(node[i], `${path}.${i}`, depth + 1);
      return;
    }
    for (const key of Object.keys(node)) {
      const child = path ? `${path}.${key}` : key;
      const message = unstorable(key);
      if (message) found.push({ path: child, message: `the key ${message}` });
      walk((node as Record<string, unknown>)[key], child, depth + 1);
    }
  };
  walk(value, where, 0);
  return found;
}

const NONE: readonly FieldViolation[] = Object.freeze([]);

function containsUnstorable(node: unknown, depth: number): boolean {
  if (typeof node === 'string') return unstorable(node) !== undefined;
  if (typeof node !== 'object' || node === null || depth >= MAX_SCAN_DEPTH) return false;
  if (Array.isArray(node)) {
    for (const item of node) if (containsUnstorable(item, depth + 1)) return true;
    return false;
  }
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    if (unstorable(key) !== undefined || containsUnstorable((node as Record<string, unknown>)[key], depth + 1))
      return true;
  }
  return false;
}

/** Throws the ValidationError that names every place the input holds text no store can hold. */
export function rejectNul(value: unknown, where: string): void {
  const violations = nulViolations(value, where);
  if (violations.length > 0) throw new ValidationError([...violations]);
}

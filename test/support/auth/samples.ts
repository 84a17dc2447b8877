import { z, type ZodType } from 'zod';

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

const STRING_CANDIDATES = ['matrix', 'kpi.matrix', 'proj_matrix', 'matrix-1', 'MATRIX', 'USD', 'a', '2026-01-15', 'x1'];

function sampleString(schema: JsonSchema, preferred?: string): string {
  if (schema.format === 'date') return '2026-01-15';
  if (schema.format === 'date-time') return '2026-01-15T00:00:00Z';
  if (schema.format === 'email') return 'matrix@example.com';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/matrix';
  const fits = (s: string) =>
    (!schema.pattern || new RegExp(schema.pattern, 'u').test(s)) &&
    s.length >= (schema.minLength ?? 0) &&
    s.length <= (schema.maxLength ?? Infinity);
  const found = [...(preferred ? [preferred] : []), ...STRING_CANDIDATES].find(fits);
  if (found) return found;
  return 'm'.repeat(Math.max(1, schema.minLength ?? 1));
}

/**
 * A minimal value for a JSON Schema: required properties only, overrides by property name
 * (`$string`: preferred text).
 */
export function sample(schema: JsonSchema, overrides: Record<string, unknown>, name = ''): unknown {
  if (name in overrides) return overrides[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sample(alternatives.find((s) => s.type !== 'null') ?? alternatives[0]!, overrides, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return sampleString(schema, typeof overrides.$string === 'string' ? overrides.$string : undefined);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}, overrides));
    default: {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key] ?? {}, overrides, key);
      for (const key of Object.keys(overrides))
        if (schema.properties && key in schema.properties && !(key in out)) out[key] = overrides[key];
      return out;
    }
  }
}

/** Arguments for a zod input schema, and whether they are valid for it (so expectations can be strict). */
export function sampleInput(
  schema: ZodType,
  overrides: Record<string, unknown>,
): { value: Record<string, unknown>; valid: boolean } {
  let json: JsonSchema = {};
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    json = { type: 'object' };
  }
  const value = sample(json, overrides) as Record<string, unknown>;
  return { value, valid: schema.safeParse(value).success };
}

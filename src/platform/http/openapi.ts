import { z, type ZodType } from 'zod';
import type { AnyRouteSpec } from './route.js';

/**
 * A zod schema as JSON Schema for the document. A recursive schema (the taxonomy tree) comes with
 * `$defs` and `#/$defs/…` references, which in an OpenAPI document would point at the document's
 * root, where nothing is: its definitions move to `components.schemas` under `<name>_<def>`.
 */
function jsonSchema(
  schema: ZodType,
  io: 'input' | 'output',
  components: Record<string, unknown>,
  name: string,
): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  const defs = out.$defs as Record<string, unknown> | undefined;
  if (!defs) return out;
  delete out.$defs;
  const moved = new Map(Object.keys(defs).map((key) => [`#/$defs/${key}`, `${name}_${key.replace(/^_+/, '')}`]));
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const target = key === '$ref' && typeof value === 'string' ? moved.get(value) : undefined;
      copy[key] = target ? `#/components/schemas/${target}` : rewrite(value);
    }
    return copy;
  };
  for (const [key, def] of Object.entries(defs)) components[moved.get(`#/$defs/${key}`)!] = rewrite(def);
  return rewrite(out) as Record<string, unknown>;
}

const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    request_id: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

function successResponse(route: AnyRouteSpec, schema: () => Record<string, unknown>): Record<string, unknown> {
  // A 204 has no body to describe.
  if (route.successStatus === 204) return { description: 'Success, no content' };
  if (route.responseMediaType)
    return { description: 'Success', content: { [route.responseMediaType]: { schema: { type: 'string' } } } };
  return { description: 'Success', content: { 'application/json': { schema: schema() } } };
}

/** OpenAPI 3.1 from the same zod schemas that validate the requests. */
export function buildOpenApiDocument(
  routes: AnyRouteSpec[],
  info: { version: string; serverUrl?: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = { Problem: PROBLEM_SCHEMA };
  for (const route of routes) {
    if (route.openapi === false) continue;
    const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const operationId = `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
    const parameters: unknown[] = [];
    for (const [location, schema] of [
      ['path', route.params],
      ['query', route.query],
    ] as const) {
      if (!schema) continue;
      const js = jsonSchema(schema, 'input', schemas, `${operationId}_${location}`);
      const props = (js.properties ?? {}) as Record<string, unknown>;
      const required = new Set((js.required as string[] | undefined) ?? []);
      for (const [name, prop] of Object.entries(props)) {
        parameters.push({ name, in: location, required: location === 'path' || required.has(name), schema: prop });
      }
    }
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: route.tags,
      operationId,
      parameters,
      security: 'public' in route.rule ? [] : [{ bearerAuth: [] }],
      'x-permission': 'public' in route.rule ? 'public' : route.rule.permission,
      responses: {
        [String(route.successStatus ?? 200)]: successResponse(route, () =>
          route.response ? jsonSchema(route.response, 'output', schemas, `${operationId}_response`) : {},
        ),
        default: {
          description: 'Problem',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
    };
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchema(route.body, 'input', schemas, `${operationId}_body`) } },
      };
    } else if (route.rawBody) {
      operation.requestBody = {
        required: true,
        content: Object.fromEntries(route.rawBody.map((t) => [t, { schema: { type: 'string' } }])),
      };
    }
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Context Hub API',
      version: info.version,
      description: 'Administration API of Context Hub. Errors are RFC 9457 problem+json.',
    },
    servers: [{ url: info.serverUrl ?? '/' }],
    paths,
    components: {
      schemas,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    },
  };
}

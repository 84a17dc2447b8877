import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { RequestContext } from '../context/request-context.js';
import type { Permission } from '../auth/permissions.js';

/**
 * Who may call a route. `public` routes skip authentication (health, well-known); every other
 * route names the permission its role must carry. A route without a rule cannot be registered.
 */
export type RouteRule = { public: true } | { permission: Permission };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  ctx: RequestContext;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<B = unknown, Q = unknown, P = unknown> {
  method: HttpMethod;
  url: string;
  summary: string;
  tags: string[];
  rule: RouteRule;
  body?: ZodType<B>;
  query?: ZodType<Q>;
  params?: ZodType<P>;
  /** Response schema for the OpenAPI document (the service's presenter shape). */
  response?: ZodType;
  /** The answer is text of this media type (e.g. text/markdown), not JSON: for the OpenAPI document. */
  responseMediaType?: string;
  /** Status of a successful answer; 200 unless stated. */
  successStatus?: number;
  /** Raw request bodies of these media types are passed as strings (e.g. text/markdown). */
  rawBody?: string[];
  /** The JSON body's text is kept as it arrived (rawJsonOf): a signature is over those bytes. */
  keepsRawJson?: true;
  bodyLimit?: number;
  /** A POST that changes nothing (a parse preview): the REST audit fallback records no entry for it. */
  readOnly?: true;
  /** false: not an API operation (the console's pages and assets), left out of the OpenAPI document. */
  openapi?: false;
  handler(input: RouteInput<B, Q, P>): Promise<unknown>;
}

/** Identity helper that keeps B/Q/P inferred from the schemas. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(spec: RouteSpec<B, Q, P>): RouteSpec<B, Q, P> {
  return spec;
}

// A registry holds routes of different input types side by side; each is checked where it is defined.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyRouteSpec = RouteSpec<any, any, any>;

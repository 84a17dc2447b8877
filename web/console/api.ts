import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './api/openapi.gen.js';
import { API_BASE } from './router.js';
import { session } from './session.js';

/** The header that tells the service a write came from the console. */
const CLIENT_HEADER = 'x-context-hub-client';

export type Schemas = components['schemas'];

type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;
/** The JSON a path and method answer with on success (200 or 201), from the generated document types. */
export type Res<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: infer A }
    ? JsonOf<A>
    : R extends { 201: infer B }
      ? JsonOf<B>
      : never
  : never;

/** A problem+json answer: `detail` to show, `errors[]` to put next to their fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly errors: { path: string; message: string }[],
  ) {
    super(message);
  }

  /** The message for one field: errors whose path names it (`body.name`, `name`, `query.q`). */
  field(name: string): string | undefined {
    const hit = this.errors.find((e) => e.path === name || e.path.split('.').slice(1).join('.') === name);
    return hit?.message;
  }
}

const auth: Middleware = {
  onRequest({ request }) {
    const token = session.token();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    // Versions written from here are recorded as `via: console` in their authorship.
    request.headers.set(CLIENT_HEADER, 'console');
    return request;
  },
  onResponse({ response }) {
    // An expired or revoked token: back to sign-in; what is being edited stays (drafts.ts).
    if (response.status === 401) session.expired();
    return response;
  },
};

/** The typed client: paths, parameters and bodies come from the service's own OpenAPI document. */
export const api = createClient<paths>({ baseUrl: API_BASE });
api.use(auth);

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Unwraps an openapi-fetch answer: the data, or an ApiError carrying the problem's detail. */
export async function ok<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok) return data as T;
  const problem = (typeof error === 'object' && error !== null ? error : {}) as {
    detail?: string;
    title?: string;
    code?: string;
    errors?: { path: string; message: string }[];
  };
  throw new ApiError(
    response.status,
    problem.detail ?? problem.title ?? (typeof error === 'string' && error ? error : `HTTP ${response.status}`),
    problem.code,
    problem.errors ?? [],
  );
}

/** Raw fetch with the session's credentials, for what is not JSON (SKILL.md import and export). */
export async function rawFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = session.token();
  if (token) headers.set('authorization', `Bearer ${token}`);
  headers.set(CLIENT_HEADER, 'console');
  const response = await fetch(`${API_BASE}${path}`, { ...init, headers });
  if (response.status === 401) session.expired();
  if (!response.ok) {
    const problem = await response.json().catch(() => ({}));
    throw new ApiError(
      response.status,
      problem.detail ?? `HTTP ${response.status}`,
      problem.code,
      problem.errors ?? [],
    );
  }
  return response;
}

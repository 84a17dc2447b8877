import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors.js';
import { checkJsonDepth } from '../json-depth.js';

/** Marks a JSON body that did not parse on routes that answer it themselves (JSON-RPC -32700). */
export const MALFORMED_JSON = Symbol('malformed-json');

/** The archive types a route may take (a gzip'd tar; routes read and check what it holds). */
export const BINARY_MEDIA_TYPES = ['application/gzip', 'application/x-gzip'];

/** The JSON text as it arrived, for routes that verify a signature over it (`keepsRawJson`). */
const rawJsonTexts = new WeakMap<object, string>();

export function rawJsonOf(request: object): string | undefined {
  return rawJsonTexts.get(request);
}

/** JSON bodies: an empty body is "no body" (action endpoints), a malformed one a clear 400. */
export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (request.routeOptions.config?.keepsRawJson) rawJsonTexts.set(request, text);
    if (text.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (request.routeOptions.config?.ownsMalformedJson) return done(null, MALFORMED_JSON);
      return done(
        new ValidationError(
          [{ path: 'body', message: 'is not valid JSON' }],
          'The request body is not valid JSON.',
          'malformed_json',
        ),
        undefined,
      );
    }
    // Nested too deep for anything to walk (a stack overflow otherwise): refused before any use.
    const tooDeep = checkJsonDepth(value);
    if (!tooDeep) return done(null, value);
    if (request.routeOptions.config?.ownsMalformedJson) return done(null, tooDeep);
    done(tooDeep.toValidationError('body'), undefined);
  });
  // Not text/plain: a page on another site may send that without asking (cross-site.ts).
  app.addContentTypeParser('text/markdown', { parseAs: 'string' }, (_request, body, done) => done(null, String(body)));
  // Archives (POST /api/projects/{id}/import) arrive as bytes; routes that take none refuse them.
  app.addContentTypeParser(BINARY_MEDIA_TYPES, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

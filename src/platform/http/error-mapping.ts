import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InsufficientScopeError } from '../auth/errors.js';
import { AppError, UnauthorizedError, ValidationError } from '../errors.js';
import { MAX_PATH_PARAM_CHARS, REST_BODY_LIMIT } from './limits.js';
import { sendWhileDraining } from './body-limits.js';
import { internalProblem, problemFromError } from './problem.js';

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  return reply
    .code(error.status)
    .header('content-type', 'application/problem+json')
    .send(problemFromError(error, String(reply.request.id)));
}

function sendInternalProblem(reply: FastifyReply): FastifyReply {
  return reply
    .code(500)
    .header('content-type', 'application/problem+json')
    .send(internalProblem(String(reply.request.id)));
}

/**
 * What the router itself refuses (a path that does not decode, a parameter beyond the length
 * limit) is answered like every other error: problem+json with the request id.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('x-request-id', request.id);
  const code = (error as { code?: string }).code;
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') return sendProblem(reply, new UriTooLong());
  if (code === 'FST_ERR_BAD_URL')
    return sendProblem(
      reply,
      new ValidationError(
        [{ path: 'path', message: 'is not valid percent-encoding' }],
        'The request path could not be decoded.',
        'bad_url',
      ),
    );
  // Only async route constraints remain, and no route has one.
  request.log.error({ err: { message: error.message, code } }, 'router failed');
  return sendInternalProblem(reply);
}

/**
 * Every error a route throws, and every route that does not exist, answered as problem+json:
 * AppErrors with their own status and code, Fastify's own 4xx mapped to ours, anything else a
 * logged 500 without its message.
 */
export function installErrorMapping(
  app: FastifyInstance,
  challenge: (request: FastifyRequest, error: UnauthorizedError | InsufficientScopeError) => string,
): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof UnauthorizedError || error instanceof InsufficientScopeError)
        reply.header('www-authenticate', challenge(request, error));
      if ('retryAfterSeconds' in error) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendProblem(reply, error);
    }
    const fastifyError = error as { statusCode?: number; code?: string };
    const status = fastifyError.statusCode;
    if (status === 413) {
      // Answered whole while the rest of the body is read and dropped, so the client reads it.
      const problem = problemFromError(
        new PayloadTooLarge(request.routeOptions.bodyLimit ?? REST_BODY_LIMIT),
        String(request.id),
      );
      return sendWhileDraining(reply, 413, 'application/problem+json', JSON.stringify(problem));
    }
    if (status === 415) {
      return reply
        .code(415)
        .header('content-type', 'application/problem+json')
        .send({
          ...internalProblem(String(request.id)),
          status: 415,
          title: 'Unsupported media type',
          code: 'unsupported_media_type',
          type: 'https://context-hub.dev/problems/unsupported_media_type',
          detail: 'Send application/json.',
        });
    }
    if (status !== undefined && status >= 400 && status < 500) {
      return sendProblem(reply, new ValidationError([], 'The request could not be read.', 'bad_request'));
    }
    request.log.error({ err: error }, 'request failed');
    return sendInternalProblem(reply);
  });

  app.setNotFoundHandler({}, (request, reply) => {
    const path = request.url.split('?')[0]!;
    sendProblem(reply, new NotFoundRoute(request.method, path));
  });
}

class UriTooLong extends AppError {
  readonly status = 414;
  readonly title = 'URI too long';
  constructor() {
    super('uri_too_long', `A path parameter is longer than ${MAX_PATH_PARAM_CHARS} characters.`);
  }
}

class PayloadTooLarge extends AppError {
  readonly status = 413;
  readonly title = 'Payload too large';
  constructor(limit: number) {
    super('payload_too_large', `The request body exceeds ${limit} bytes.`);
  }
}

class NotFoundRoute extends AppError {
  readonly status = 404;
  readonly title = 'Not found';
  constructor(method: string, path: string) {
    super('route_not_found', `No route ${method} ${path}.`);
  }
}

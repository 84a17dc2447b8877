import type { FastifyReply } from 'fastify';
import { TOO_DEEP_MESSAGE, TooDeepJson } from '../platform/json-depth.js';

export { TooDeepJson };

/**
 * The JSON-RPC answer to a message nested too deep (platform/json-depth.ts): -32602 when the
 * nesting is inside a request's params (its id kept, so the client can match it), else -32600.
 * HTTP 400 on every transport, like the other messages refused before dispatch.
 */
export function replyTooDeep(reply: FastifyReply, tooDeep: TooDeepJson): FastifyReply {
  const inParams = tooDeep.path[0] === 'params';
  const where = tooDeep.path.join('.');
  const error = inParams
    ? { code: -32602, message: `Invalid params: ${where} ${TOO_DEEP_MESSAGE}` }
    : { code: -32600, message: `Invalid Request: the message ${TOO_DEEP_MESSAGE} (at ${where || 'the top'})` };
  return reply.code(400).header('content-type', 'application/json').send({ jsonrpc: '2.0', error, id: tooDeep.id });
}

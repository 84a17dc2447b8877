import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** How much of a refused body is read (and dropped) so the client gets to read its 413. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** How long a refused body is read at most: a slow client is cut off after this. */
export const DRAIN_MAX_MS = 5_000;

/**
 * Answers a request whose body is refused unread (413) so the client can read the answer.
 * Node closes the connection right after such an answer; when the client is still sending (Node's
 * fetch and most SDK clients send without `Expect: 100-continue`), the unread bytes make the
 * kernel reset the connection, and the client often gets EPIPE/ECONNRESET before it reads the 413.
 * So the answer goes out whole (with `Connection: close`), but the response is only ended, and the
 * connection closed, once the rest of the body has been read and dropped, up to DRAIN_MAX_BYTES
 * or DRAIN_MAX_MS.
 */
export function sendWhileDraining(
  reply: FastifyReply,
  status: number,
  contentType: string,
  body: string,
): FastifyReply {
  const req = reply.request.raw;
  reply.code(status).header('content-type', contentType).header('connection', 'close');
  const declared = Number(req.headers['content-length']);
  // Nothing left to read, or more than we would read anyway: answer and close at once.
  if (req.complete || req.destroyed || declared > DRAIN_MAX_BYTES) return reply.send(body);
  const bytes = Buffer.from(body);
  const answer = new PassThrough();
  answer.write(bytes);
  void drain(req).then(() => answer.end());
  return reply.header('content-length', bytes.length).send(answer);
}

/** Reads and drops the rest of a request body; resolves at its end, on close, or at the bounds. */
function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
      req.off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAIN_MAX_MS);
    timer.unref();
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.once('error', finish);
    req.resume();
  });
}

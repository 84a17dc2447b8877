import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { STANDALONE_STREAM_ID, type SessionStore } from '../session-store.js';
import type { LiveSession } from './live-sessions.js';

/**
 * Counts an SSE response as busy until its stream ends or the client goes away, sending `first`
 * (the GET stream's priming event) ahead of what the transport writes.
 */
export function whileStreaming(session: LiveSession, response: Response, first?: Uint8Array): Response {
  if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response;
  session.busy++;
  let open = true;
  const ended = (): void => {
    if (open) session.busy--;
    open = false;
  };
  const source = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      if (first) controller.enqueue(first);
    },
    pull: async (controller) => {
      try {
        const { done, value } = await source.read();
        if (done) {
          ended();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        ended();
        controller.error(error);
      }
    },
    cancel: (reason) => {
      ended();
      return source.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * The priming event a fresh GET stream starts with. The SDK primes POST streams but not the
 * standalone GET stream. Without an event id a client
 * that disconnects before any notification arrives has nothing to resume from, and what was sent
 * meanwhile is lost to it. So a fresh GET stream starts with a stored, empty priming event
 * (clients of 2025-11-25 and later accept empty data).
 */
export async function primingEvent(
  store: SessionStore,
  session: LiveSession,
  request: Request,
  response: Response,
): Promise<Uint8Array | undefined> {
  if (response.status !== 200 || !response.body || request.headers.get('last-event-id')) return undefined;
  if (session.protocolVersion < '2025-11-25') return undefined;
  const eventId = await store.eventStore(session.id).storeEvent(STANDALONE_STREAM_ID, {} as JSONRPCMessage);
  return new TextEncoder().encode(`id: ${eventId}\ndata: \n\n`);
}

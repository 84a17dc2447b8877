import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { AuthInfo, JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

/**
 * The 2024-11-05 HTTP+SSE transport (the v2 SDK ships no server side for it): `GET /sse` holds an
 * event stream whose first event names the POST endpoint; every JSON-RPC message the client POSTs
 * to `/messages?sessionId=…` is answered on that stream.
 */
export class SseServerTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private closed = false;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly endpointPath: string,
    private readonly keepAliveMs = 15_000,
  ) {}

  async start(): Promise<void> {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.write(`event: endpoint\ndata: ${this.endpointPath}?sessionId=${this.sessionId}\n\n`);
    this.res.on('close', () => void this.close());
    if (this.keepAliveMs > 0)
      this.keepAlive = setInterval(() => this.res.write(': keepalive\n\n'), this.keepAliveMs).unref();
  }

  /** A message POSTed by the client; answers travel on the event stream. */
  receive(message: JSONRPCMessage, authInfo: AuthInfo): void {
    this.onmessage?.(message, { authInfo });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    if (!this.res.writableEnded) this.res.end();
    this.onclose?.();
  }
}

// A keep-alive HTTP/1.1 client connection on a bare TCP socket, for the load generator's `socket`
// client. It exists because undici spends more client CPU on a large answer than the server spends
// producing it (stream plumbing, a Buffer per read and a UTF-8 decode per response; BENCHMARKS.md,
// mcp notes): with our tools/list the load generator, not the server, was the bottleneck. This one
// reads into one buffer per connection (net's `onread`), keeps nothing of the body but its first
// bytes, and looks for the JSON-RPC "result" key as the bytes pass.
// It speaks just enough HTTP/1.1 for the benchmark: one request in flight, answers framed by
// Content-Length or chunked transfer coding (the SDK's SSE answers), no trailers, no upgrades.
import net from 'node:net';

export interface Http1Response {
  status: number;
  /** Whether the body (after transfer decoding) contains the bytes `"result"`. */
  hasResult: boolean;
  /** The body's first bytes, for an error report. */
  excerpt: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const RESULT = Buffer.from('"result"');
const EXCERPT_BYTES = 200;
const READ_BUFFER_BYTES = 64 * 1024;

export class Http1SocketError extends Error {
  readonly code = 'HTTP1_SOCKET';
}

/** Looks for `"result"` in a body that arrives in pieces (a match may straddle pieces, even several short ones). */
class ResultScan {
  found = false;
  private tail: Buffer | undefined;

  push(bytes: Buffer): void {
    if (this.found || bytes.length === 0) return;
    if (bytes.indexOf(RESULT) >= 0) {
      this.found = true;
      return;
    }
    if (this.tail) {
      // The last few bytes seen so far, which may span several short pieces, then this piece's start.
      const joint = Buffer.concat([this.tail, bytes.subarray(0, RESULT.length - 1)]);
      if (joint.indexOf(RESULT) >= 0) {
        this.found = true;
        return;
      }
    }
    // Copied: `bytes` is a view of the connection's read buffer, reused by the next read.
    const keep = RESULT.length - 1;
    this.tail = Buffer.from(
      this.tail && bytes.length < keep ? Buffer.concat([this.tail, bytes]).subarray(-keep) : bytes.subarray(-keep),
    );
  }
}

/** Body bytes of one response, after transfer decoding: scanned, the first few kept, counted. */
class BodySink {
  readonly scan = new ResultScan();
  private excerptParts: Buffer[] = [];
  private excerptBytes = 0;

  push(bytes: Buffer): void {
    this.scan.push(bytes);
    if (this.excerptBytes < EXCERPT_BYTES && bytes.length > 0) {
      const part = Buffer.from(bytes.subarray(0, EXCERPT_BYTES - this.excerptBytes));
      this.excerptParts.push(part);
      this.excerptBytes += part.length;
    }
  }

  excerpt(): string {
    return Buffer.concat(this.excerptParts).toString('utf8');
  }
}

/**
 * Chunked transfer decoding, incremental: hands chunk data to the sink as it arrives and is
 * `done` once the last chunk (size 0) and its CRLF are in. Partial size lines are kept (copied).
 */
class ChunkedFraming {
  done = false;
  /** Bytes of chunk data still to come in the current chunk, then its CRLF (2). */
  private remainingData = 0;
  private remainingCrlf = 0;
  private line = '';
  private last = false;

  constructor(private readonly sink: BodySink) {}

  push(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length && !this.done) {
      if (this.remainingData > 0) {
        const take = Math.min(this.remainingData, bytes.length - at);
        this.sink.push(bytes.subarray(at, at + take));
        this.remainingData -= take;
        at += take;
        continue;
      }
      if (this.remainingCrlf > 0) {
        const take = Math.min(this.remainingCrlf, bytes.length - at);
        this.remainingCrlf -= take;
        at += take;
        if (this.remainingCrlf === 0 && this.last) this.done = true;
        continue;
      }
      const newline = bytes.indexOf(10, at);
      if (newline < 0) {
        this.line += bytes.toString('latin1', at);
        return;
      }
      this.line += bytes.toString('latin1', at, newline + 1);
      at = newline + 1;
      // Chunk extensions (";name=value") are allowed after the size and ignored.
      const size = Number.parseInt(this.line.split(';', 1)[0]!.trim(), 16);
      this.line = '';
      if (!Number.isFinite(size)) throw new Http1SocketError('malformed chunk size');
      // No trailers expected: the last chunk is "0\r\n\r\n".
      this.last = size === 0;
      this.remainingData = size;
      this.remainingCrlf = 2;
    }
  }
}

interface InFlight {
  resolve(response: Http1Response): void;
  reject(error: Error): void;
  /** Head bytes so far, while the head is incomplete (copied out of the read buffer). */
  head: Buffer | undefined;
  status: number;
  sink: BodySink;
  /** Set once the head is in: Content-Length framing counts down, chunked framing decodes. */
  remaining: number;
  chunked: ChunkedFraming | undefined;
}

export class Http1Socket {
  private readonly socket: net.Socket;
  private inFlight: InFlight | undefined;
  private closed = false;

  constructor(host: string, port: number) {
    this.socket = net.connect({
      host,
      port,
      noDelay: true,
      onread: {
        buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
        callback: (length: number, buffer: Uint8Array) => {
          this.onRead(Buffer.from(buffer.buffer, buffer.byteOffset, length));
          return true;
        },
      },
    });
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.closed = true;
      this.fail(new Http1SocketError('connection closed'));
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends one request (head and body already encoded) and resolves with its response. */
  request(bytes: Buffer): Promise<Http1Response> {
    if (this.closed) return Promise.reject(new Http1SocketError('connection closed'));
    return new Promise((resolve, reject) => {
      this.inFlight = {
        resolve,
        reject,
        head: undefined,
        status: 0,
        sink: new BodySink(),
        remaining: -1,
        chunked: undefined,
      };
      this.socket.write(bytes);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(error: Error): void {
    const inFlight = this.inFlight;
    this.inFlight = undefined;
    inFlight?.reject(error);
  }

  private onRead(bytes: Buffer): void {
    const request = this.inFlight;
    if (!request) return;
    try {
      let body = bytes;
      if (request.remaining < 0 && !request.chunked) {
        const head = request.head ? Buffer.concat([request.head, bytes]) : bytes;
        const end = head.indexOf(HEAD_END);
        if (end < 0) {
          request.head = Buffer.from(head);
          return;
        }
        this.readHead(request, head.toString('latin1', 0, end));
        body = head.subarray(end + HEAD_END.length);
      }
      if (request.chunked) {
        request.chunked.push(body);
        if (request.chunked.done) this.finish(request);
        return;
      }
      const take = body.subarray(0, request.remaining);
      request.sink.push(take);
      request.remaining -= take.length;
      if (request.remaining === 0) this.finish(request);
    } catch (error) {
      this.socket.destroy();
      this.fail(error instanceof Error ? error : new Http1SocketError(String(error)));
    }
  }

  private readHead(request: InFlight, head: string): void {
    const lines = head.split('\r\n');
    request.status = Number(lines[0]!.slice(9, 12));
    let length = -1;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding' && value.includes('chunked'))
        request.chunked = new ChunkedFraming(request.sink);
    }
    // An answer framed by closing the connection would need a read to EOF; no server here sends one.
    if (!request.chunked && length < 0)
      throw new Http1SocketError('response has neither Content-Length nor chunked coding');
    if (!request.chunked) request.remaining = length;
  }

  private finish(request: InFlight): void {
    this.inFlight = undefined;
    request.resolve({ status: request.status, hasResult: request.sink.scan.found, excerpt: request.sink.excerpt() });
  }
}

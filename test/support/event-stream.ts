export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Reads a text/event-stream response incrementally. `next(predicate)` resolves with the first
 * event (seen or arriving) that matches; `close()` aborts the request.
 */
export class EventStreamReader {
  readonly events: SseEvent[] = [];
  private waiters: {
    predicate: (e: SseEvent) => boolean;
    resolve: (e: SseEvent) => void;
    reject: (err: Error) => void;
  }[] = [];
  private ended = false;

  private constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {}

  /** A GET stream, or the response stream of a POST when `body` is given. */
  static async open(url: string, headers: Record<string, string>, body?: unknown): Promise<EventStreamReader> {
    const controller = new AbortController();
    const response = await fetch(url, {
      ...(body === undefined
        ? { headers: { accept: 'text/event-stream', ...headers } }
        : {
            method: 'POST',
            headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
            body: JSON.stringify(body),
          }),
      signal: controller.signal,
    });
    const reader = new EventStreamReader(response, controller);
    if (response.ok && response.body) void reader.pump(response.body);
    else reader.ended = true;
    return reader;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let index = buffer.indexOf('\n\n'); index !== -1; index = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          this.accept(block);
        }
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
    for (const w of this.waiters) w.reject(new Error('event stream ended'));
    this.waiters = [];
  }

  private accept(block: string): void {
    const event: SseEvent = { data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const [field, ...rest] = line.split(':');
      const value = rest.join(':').replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') data.push(value);
    }
    if (event.id === undefined && data.length === 0) return;
    event.data = data.join('\n');
    this.events.push(event);
    this.waiters = this.waiters.filter((w) => {
      if (!w.predicate(event)) return true;
      w.resolve(event);
      return false;
    });
  }

  next(predicate: (e: SseEvent) => boolean = () => true): Promise<SseEvent> {
    const seen = this.events.find(predicate);
    if (seen) return Promise.resolve(seen);
    if (this.ended) return Promise.reject(new Error('event stream ended'));
    return new Promise((resolve, reject) => this.waiters.push({ predicate, resolve, reject }));
  }

  /** Messages (parsed data) whose JSON-RPC method matches. */
  messages(method: string): any[] {
    return this.events.filter((e) => e.data?.includes(method)).map((e) => JSON.parse(e.data));
  }

  close(): void {
    this.controller.abort();
  }
}

export const isMethod = (method: string) => (e: SseEvent) =>
  e.data !== '' && (JSON.parse(e.data) as { method?: string }).method === method;

import type { ServerResponse } from 'node:http';

/** Writes a web-standard Response (possibly an SSE stream) to a Node response. */
export async function writeWebResponse(
  res: ServerResponse,
  response: Response,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const headers: Record<string, string | string[]> = { ...extraHeaders };
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return;
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve));
    }
  } catch {
    // The client went away mid-stream; nothing to answer.
  } finally {
    if (!res.writableEnded) res.end();
  }
}

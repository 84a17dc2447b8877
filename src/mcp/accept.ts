/**
 * The SDK transport's Accept check, made before any session lookup: a 2025-era request the client
 * could not read the answer to is 406 whether or not it names a session, as the SDK's own transport
 * answers (a request without a session was otherwise told 400 "session required" first).
 */
export function notAcceptable(request: Request): Response | undefined {
  const accept = request.headers.get('accept') ?? '';
  if (request.method === 'GET' && !accept.includes('text/event-stream'))
    return refuse('Not Acceptable: Client must accept text/event-stream');
  if (request.method === 'POST' && !(accept.includes('application/json') && accept.includes('text/event-stream')))
    return refuse('Not Acceptable: Client must accept both application/json and text/event-stream');
  return undefined;
}

function refuse(message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status: 406,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * A project reference as callers write it: the id itself, or the console URL of one of the
 * project's pages (`https://hub.example.com/console/proj_marketing/anomalies?x=1`), which people
 * copy from the address bar and agents find in chat. The console may sit under a path
 * prefix (PUBLIC_BASE_URL can have one), so the project is the segment after the first `console`
 * segment of the path, wherever that is; the host is not checked, since the grant decides access.
 */

export const PROJECT_ID_SOURCE = 'proj_[a-z0-9][a-z0-9_-]{0,62}';
export const PROJECT_ID_PATTERN = new RegExp(`^${PROJECT_ID_SOURCE}$`);

/**
 * What a project_id field accepts, as one pattern so that the JSON Schema clients see (MCP
 * inputSchema, OpenAPI) says exactly what validation accepts. The prefix segments may not be
 * `console` (the negative lookahead), which makes the captured slug unambiguous.
 */
const REFERENCE_SOURCE =
  `${PROJECT_ID_SOURCE}|https?://[^/?#\\s]+(?:/(?!console(?:[/?#]|$))[^/?#\\s]*)*/console/(${PROJECT_ID_SOURCE})` +
  '(?:[/?#]\\S*)?';
export const PROJECT_REFERENCE_PATTERN = new RegExp(`^(?:${REFERENCE_SOURCE})$`);

/**
 * What a tool's project_id accepts: `default` (the caller's only project) or a reference, as one
 * pattern, so its JSON Schema is one string schema (half the tokens of a union in every tool).
 */
export const PROJECT_REFERENCE_OR_DEFAULT_PATTERN = new RegExp(`^(?:default|${REFERENCE_SOURCE})$`);

export const MAX_PROJECT_REFERENCE_LENGTH = 2048;

const ACCEPTED =
  'a project id such as proj_marketing, or a console URL such as ' +
  'https://hub.example.com/console/proj_marketing/overview (the proj_… segment after /console/ is used)';

/** The project id a reference names; the reference must already match PROJECT_REFERENCE_PATTERN. */
export function projectIdOf(reference: string): string {
  return PROJECT_REFERENCE_PATTERN.exec(reference)?.[1] ?? reference;
}

/** Why `input` is not a project reference, in words that say what would be. */
export function projectReferenceProblem(input: unknown, allowDefault = false): string {
  const accepted = allowDefault ? `"default" (your only project), ${ACCEPTED}` : ACCEPTED;
  if (typeof input !== 'string') return `must be a string: ${accepted}`;
  if (input.length > MAX_PROJECT_REFERENCE_LENGTH)
    return `is longer than ${MAX_PROJECT_REFERENCE_LENGTH} characters; pass ${accepted}`;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    return `"${clip(input)}" is not a project id (it must match ^${PROJECT_ID_SOURCE}$); pass ${accepted}`;
  }
  const url = parseUrl(input);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !/^https?:\/\//.test(input))
    return `"${clip(input)}" is not an http(s) URL; pass ${accepted}`;
  const segments = url.pathname.split('/');
  const at = segments.indexOf('console');
  if (at < 0) return `"${clip(input)}" is a URL but not a console URL (no /console/ in its path); pass ${accepted}`;
  const slug = segments[at + 1] ?? '';
  if (slug === '') return `the console URL "${clip(input)}" names no project after /console/; pass ${accepted}`;
  return (
    `the console URL's project segment "${clip(slug)}" is not a project id ` +
    `(it must match ^${PROJECT_ID_SOURCE}$); pass ${accepted}`
  );
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Enough of the input to recognize it, never a whole pasted page. */
function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

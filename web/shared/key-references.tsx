import type { ComponentChildren } from 'preact';

/**
 * A `[[key]]` business-key reference, as the service parses it (src/modules/skills/skills.parse.ts).
 * Global: reset `lastIndex` after `test`, or use `matchAll`.
 */
export const KEY_REFERENCE = /\[\[([a-z][a-z0-9_-]*(?:\.[a-z0-9][a-z0-9_-]*)*)\]\]/g;

/**
 * Plain text with its `[[key]]` references shown as the key (a link when `keyHref` says where to),
 * never as raw brackets. For one-line texts such as a Skill's description where no Markdown renderer
 * is loaded (the widgets); the text stays text, so nothing in it is ever read as HTML.
 */
export function WithKeyReferences(props: { text: string; keyHref?: (key: string) => string }): ComponentChildren {
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const match of props.text.matchAll(KEY_REFERENCE)) {
    parts.push(props.text.slice(last, match.index));
    const key = match[1]!;
    parts.push(
      props.keyHref ? (
        <a key={`${match.index}`} class="key-ref" href={props.keyHref(key)}>
          {key}
        </a>
      ) : (
        <span key={`${match.index}`} class="key-ref mono">
          {key}
        </span>
      ),
    );
    last = match.index + match[0].length;
  }
  parts.push(props.text.slice(last));
  return parts;
}

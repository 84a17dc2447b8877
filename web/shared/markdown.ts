import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { KEY_REFERENCE } from './key-references.js';

/** Text inside these stays as written: a link's words, code. */
const LITERAL = new Set(['A', 'CODE', 'PRE']);

/** The hrefs of the key links the current renderMarkdown call made (the hook below keeps them in the app). */
let keyLinks: Set<string> | undefined;

// Links leave the sandboxed view (or the console) in a new context, and tell nothing about where
// they come from; nothing in a sheet may script the page. The only exception: the key links
// renderMarkdown itself made, which open the key in the console.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  if (node.classList.contains('key-ref') && keyLinks?.has(node.getAttribute('href') ?? '')) {
    node.removeAttribute('target');
    return;
  }
  node.setAttribute('target', '_blank');
  node.setAttribute('rel', 'noopener noreferrer');
});

export interface MarkdownOptions {
  /** Where a `[[key]]` reference in the text links to; without it references stay text. */
  keyHref?: (key: string) => string;
  /** One line of text (a description), read without wrapping it in a paragraph. */
  inline?: boolean;
}

/**
 * Markdown to sanitized HTML: GitHub-flavoured, no raw script, style or event handler survives.
 * `[[key]]` references become links before sanitizing, and only in text (never in an attribute, a
 * link's words or code), so the sanitizer has the last word on everything (a reference
 * linked inside an alt or title once broke out of the attribute).
 */
export function renderMarkdown(source: string, options: MarkdownOptions = {}): string {
  let html = options.inline
    ? marked.parseInline(source, { async: false, gfm: true })
    : marked.parse(source, { async: false, gfm: true });
  const made = new Set<string>();
  if (options.keyHref) html = linkKeyReferences(html, options.keyHref, made);
  keyLinks = made;
  try {
    return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input'] });
  } finally {
    keyLinks = undefined;
  }
}

/** Replaces `[[key]]` in the text nodes of `html` (parsed inert, in a template) with links. */
function linkKeyReferences(html: string, keyHref: (key: string) => string, made: Set<string>): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let literal = false;
    for (let at = node.parentElement; at && !literal; at = at.parentElement) literal = LITERAL.has(at.tagName);
    if (!literal && KEY_REFERENCE.test(node.nodeValue ?? '')) texts.push(node as Text);
    KEY_REFERENCE.lastIndex = 0;
  }
  for (const text of texts) {
    const value = text.nodeValue ?? '';
    const parts = document.createDocumentFragment();
    let last = 0;
    for (const match of value.matchAll(KEY_REFERENCE)) {
      parts.append(value.slice(last, match.index));
      const link = document.createElement('a');
      const href = keyHref(match[1]!);
      made.add(href);
      link.className = 'key-ref';
      link.setAttribute('href', href);
      link.textContent = match[1]!;
      parts.append(link);
      last = match.index + match[0].length;
    }
    parts.append(value.slice(last));
    text.replaceWith(parts);
  }
  return template.innerHTML;
}

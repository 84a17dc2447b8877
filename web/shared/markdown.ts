import DOMPurify from 'dompurify';
import { marked } from 'marked';

// Links leave the sandboxed view in a new context; nothing in a sheet may script the view.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * Markdown to sanitized HTML: GitHub-flavoured, no raw script, style or event handler survives.
 * `inline` reads one line of text (a description) without wrapping it in a paragraph.
 */
export function renderMarkdown(source: string, options: { inline?: boolean } = {}): string {
  const html = options.inline
    ? marked.parseInline(source, { async: false, gfm: true })
    : marked.parse(source, { async: false, gfm: true });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input'] });
}

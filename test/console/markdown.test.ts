import { describe, expect, it } from 'vitest';
import { consoleSuite } from '../support/console.js';
import { api } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';
/** A 1×1 transparent PNG: an image the console's CSP lets load (img-src 'self' data:). */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const BODY = [
  'See [[kpi.roas]] first.',
  '',
  `![chart of [[kpi.roas]] over time](${PIXEL} "title [[kpi.roas]] here")`,
  '',
  '[the [[kpi.roas]] docs](https://example.com/wiki "about [[kpi.roas]]")',
  '',
  '`code [[kpi.roas]]`',
  '',
].join('\n');

/**
 * `[[key]]` linking once ran on the sanitized HTML, so a reference inside an image's
 * alt or title broke out of the attribute, and a link whose title held one lost its
 * rel="noopener noreferrer". References are now linked in text only, before sanitizing.
 */
describe.each(STORES)('console Markdown: [[key]] links in text only [%s]', (store) => {
  const suite = consoleSuite(store);

  it('attributes keep their text, outside links keep rel, references in text open the taxonomy', async () => {
    const created = await api(`${suite.service.url}/api/knowledge`, {
      method: 'POST',
      json: { project_id: P, topic_id: 'markdown-edges', title: 'Markdown edges', body_md: BODY },
    });
    expect(created.status).toBe(201);
    const { page } = suite.ui;
    await suite.ui.open(`${P}/knowledge/markdown-edges`);
    const body = page.locator('article .markdown');
    await body.waitFor();
    const seen = await body.evaluate((root) => ({
      images: [...root.querySelectorAll('img')].map((img) => ({
        alt: img.getAttribute('alt'),
        title: img.getAttribute('title'),
        attributes: img.getAttributeNames().sort(),
      })),
      links: [...root.querySelectorAll('a')].map((a) => ({
        text: a.textContent,
        href: a.getAttribute('href'),
        title: a.getAttribute('title'),
        rel: a.getAttribute('rel'),
        target: a.getAttribute('target'),
        keyRef: a.classList.contains('key-ref'),
      })),
      code: root.querySelector('code')?.textContent,
    }));
    expect(seen.images).toEqual([
      { alt: 'chart of [[kpi.roas]] over time', title: 'title [[kpi.roas]] here', attributes: ['alt', 'src', 'title'] },
    ]);
    expect(seen.links).toEqual([
      {
        text: 'kpi.roas',
        href: `/console/${P}/taxonomy?key=kpi.roas`,
        title: null,
        rel: null,
        target: null,
        keyRef: true,
      },
      {
        text: 'the [[kpi.roas]] docs',
        href: 'https://example.com/wiki',
        title: 'about [[kpi.roas]]',
        rel: 'noopener noreferrer',
        target: '_blank',
        keyRef: false,
      },
    ]);
    expect(seen.code).toBe('code [[kpi.roas]]');
    await suite.ui.check('markdown-edges');
    // The reference in text still opens the key in the taxonomy, in the console.
    await body.getByRole('link', { name: 'kpi.roas', exact: true }).click();
    await page.getByRole('region', { name: 'Key kpi.roas' }).waitFor();
  });
});

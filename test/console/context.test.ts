import { describe, expect, it } from 'vitest';
import { consoleSuite } from '../support/console.js';
import { api } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';

describe.each(STORES)('console: Skills, Knowledge, taxonomy and search [%s]', (store) => {
  const suite = consoleSuite(store);

  it('edit a Skill: the live preview is the service parse; saving makes version 2 with the new step', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/skills`);
    await page.locator('table[data-loaded="true"]').waitFor();
    // The key filter keeps exactly the Skills that reference the key (as the API says).
    const all = (await api(`${suite.service.url}/api/skills?project_id=${P}&limit=200`)).body.skills as {
      name: string;
      mdm_references: string[];
    }[];
    const usingRoas = all.filter((s) => s.mdm_references.includes('kpi.roas')).map((s) => s.name);
    expect(usingRoas.length).toBeGreaterThan(0);
    expect(usingRoas.length).toBeLessThan(all.length);
    await page.getByLabel('Uses business key').selectOption('kpi.roas');
    const rows = page.locator('table tbody tr td:first-child');
    await expect.poll(() => rows.allTextContents()).toEqual(expect.arrayContaining(usingRoas));
    expect((await rows.allTextContents()).sort()).toEqual([...usingRoas].sort());
    await page.getByLabel('Uses business key').selectOption('');
    await page.getByLabel('Search skills').fill('roas drop');
    await suite.ui.check('skills-list');
    await page.getByRole('link', { name: 'investigate-roas-drop' }).click();
    await page.getByText('Version 1 of 1').waitFor();
    const before = await page.locator('ol.steps > li').count();
    expect(before).toBeGreaterThan(2);
    await suite.ui.check('skill-view');
    await page.getByRole('tab', { name: 'Edit' }).click();
    const body = page.getByLabel('Body (Markdown)');
    const text = await body.inputValue();
    await body.fill(
      text.replace(
        '## Acceptance',
        `${before + 1}. **Tell the channel owner** about [[kpi.not_a_key]].\n\n## Acceptance`,
      ),
    );
    // A description may name keys too; markup in it is sanitized as the body's is.
    await page.getByLabel('Description').fill('Why [[kpi.roas]] fell <script>window.pwned = 1</script>and what to do');
    // The preview comes from POST /api/skills/parse: the new step and the unresolved key.
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('heading', { name: `Steps (${before + 1})` }).waitFor();
    await preview.getByText('kpi.not_a_key (not in the taxonomy)').waitFor();
    await suite.ui.check('skill-edit');
    await page.getByRole('button', { name: 'Save as next version' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    await page.getByText('Version 2 of 2').waitFor();
    expect(await page.locator('ol.steps > li').count()).toBe(before + 1);
    await page.locator('ol.steps').getByText('Tell the channel owner').waitFor();
    const stored = await api(`${suite.service.url}/api/skills/investigate-roas-drop?project_id=${P}`);
    expect(stored.body.version).toBe(2);
    expect(stored.body.steps).toHaveLength(before + 1);
    // The previews changed nothing and are not in the audit log; the save is.
    const audit = (await api(`${suite.service.url}/api/org/audit?limit=200`)).body.entries as {
      action: string;
      target: string;
    }[];
    expect(audit.filter((e) => e.target.includes('parse'))).toEqual([]);
    expect(audit.some((e) => /skill/i.test(`${e.action} ${e.target}`))).toBe(true);
    // A [[key]] in the description is linked as in the body; the script never made it to the page.
    const description = page.getByTestId('skill-description');
    const keyLink = description.getByRole('link', { name: 'kpi.roas' });
    expect(await keyLink.getAttribute('href')).toBe(`/console/${P}/taxonomy?key=kpi.roas`);
    expect(await description.textContent()).toBe('Why kpi.roas fell and what to do');
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    await keyLink.click();
    await page.getByRole('region', { name: 'Key kpi.roas' }).waitFor();
    await page.goBack();
    await page.getByText('Version 2 of 2').waitFor();
    // A [[key]] in the rendered body opens that key in the taxonomy.
    await page.getByRole('region', { name: 'Body' }).getByRole('link', { name: 'kpi.roas' }).first().click();
    await page.getByRole('region', { name: 'Key kpi.roas' }).waitFor();
    await page.goBack();
    await page.getByText('Version 2 of 2').waitFor();
    // History lists both; version 1 is one click away.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Version 1' }).click();
    await page.getByText('Version 1 of 2').waitFor();
  });

  it("a Skill's page shows how it appears as an MCP prompt: its name and the arguments it takes", async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/skills/explain-todays-anomalies`);
    const section = page.locator('section[aria-label="As an MCP prompt"][data-loaded="true"]');
    await section.waitFor();
    expect(await section.locator('code').first().textContent()).toBe('explain-todays-anomalies');
    const rows = await section
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
    // As the service lists it to the person looking (GET /api/skills/{name}/prompt).
    const listed = (await api(`${suite.service.url}/api/skills/explain-todays-anomalies/prompt?project_id=${P}`)).body
      .arguments as { name: string; required: boolean }[];
    expect(rows.map((r) => r[0])).toEqual(listed.map((a) => a.name));
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(['date', 'metric', 'channel']));
    expect(rows.find((r) => r[0] === 'metric')).toEqual([
      'metric',
      'no',
      'metric names',
      'Only anomalies of this KPI, e.g. roas.',
    ]);
    expect(rows.find((r) => r[0] === 'date')?.[2]).toBe('—');
    await suite.ui.check('skill-prompt');
  });

  it('SKILL.md export and import; a refused name shows its message next to the field', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/skills/investigate-roas-drop`);
    await page.getByText(/Version 2 of 2/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export SKILL.md' }).click(),
    ]);
    const exported = await (await download.createReadStream()).toArray();
    const file = Buffer.concat(exported).toString('utf8');
    expect(file).toMatch(/^---\nname: investigate-roas-drop/);
    await suite.ui.open(`${P}/skills`);
    await page.locator('table[data-loaded="true"]').waitFor();
    await page.getByLabel('Import a SKILL.md').setInputFiles({
      name: 'SKILL.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(file.replace('name: investigate-roas-drop', 'name: imported-roas-drop')),
    });
    await page.getByRole('heading', { level: 1, name: 'imported-roas-drop' }).waitFor();
    await page.getByText('Version 1 of 1').waitFor();
    // Field errors from the problem's errors[] sit next to their field.
    await suite.ui.open(`${P}/skills`);
    await page.getByText('New skill').click();
    await page.getByLabel('Name').fill('Bad Name');
    await page.getByLabel('Description', { exact: true }).fill('x');
    suite.ui.allowedStatuses.add(400);
    await page.getByRole('button', { name: 'Create skill' }).click();
    const error = page.locator('.field-error').first();
    await error.waitFor();
    expect(await error.textContent()).toMatch(/lowercase letters, digits and single hyphens/);
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    suite.ui.errors.length = 0;
  });

  it('edit a Knowledge sheet with a rendered preview; saving makes version 2', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/knowledge`);
    await page.locator('table[data-loaded="true"]').waitFor();
    await page.getByLabel('Owned by').selectOption('Performance marketing');
    const owners = page.locator('table tbody tr td:nth-child(3)');
    await expect.poll(async () => new Set(await owners.allTextContents())).toEqual(new Set(['Performance marketing']));
    expect(await owners.count()).toBe(2);
    await suite.ui.check('knowledge-list');
    await page.getByLabel('Owned by').selectOption('');
    await suite.ui.open(`${P}/knowledge/roas-definition`);
    await page.locator('article[data-loaded="true"]').waitFor();
    await page.getByRole('tab', { name: 'Edit' }).click();
    const body = page.getByLabel('Body (Markdown)');
    await body.fill(`${await body.inputValue()}\n\n## Added from the console\n\nSee [[kpi.roas]].\n`);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('heading', { name: 'Added from the console' }).waitFor();
    await suite.ui.check('knowledge-edit');
    await page.getByRole('button', { name: 'Save as next version' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    await page.locator('article').getByRole('heading', { name: 'Added from the console' }).waitFor();
  });

  it('taxonomy: create a key, link a sheet to it, see what explains it', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/taxonomy`);
    await page.locator('nav.tree[data-loaded="true"]').waitFor();
    await suite.ui.check('taxonomy');
    await page.getByRole('button', { name: 'New key' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Key', { exact: true }).fill('kpi.console_margin');
    await form.getByLabel('Label').fill('Console margin');
    await form.getByLabel('Parent key (moves the key)').fill('kpi');
    await form.getByRole('button', { name: 'Create key' }).click();
    const panel = page.getByRole('region', { name: 'Key kpi.console_margin' });
    await panel.getByRole('heading', { name: 'Console margin' }).waitFor();
    await panel.getByLabel('Sheet topic or Skill name').fill('roas-definition');
    await panel.getByRole('button', { name: 'Link' }).click();
    await panel.getByRole('list', { name: 'Links' }).getByText('roas-definition').waitFor();
    await page.locator('nav.tree').getByRole('button', { name: 'Console margin' }).waitFor();
    const links = await api(`${suite.service.url}/api/context/business-links?project_id=${P}&limit=500`);
    expect(
      links.body.links.some(
        (l: { business_key: string; source_key: string }) =>
          l.business_key === 'kpi.console_margin' && l.source_key === 'roas-definition',
      ),
    ).toBe(true);
    await suite.ui.check('taxonomy-key');

    // Moving a key is editing its parent: the tree and the API both follow.
    await panel.getByRole('button', { name: 'Edit key' }).click();
    const edit = page.getByRole('form', { name: 'Edit kpi.console_margin' });
    await edit.getByLabel('Parent key (moves the key)').fill('channel');
    await edit.getByRole('button', { name: 'Save key' }).click();
    await panel.getByRole('heading', { name: 'Console margin' }).waitFor();
    await panel.locator('dd.mono', { hasText: /^channel$/ }).waitFor();
    const moved = await api(`${suite.service.url}/api/taxonomy/keys/kpi.console_margin?project_id=${P}`);
    expect(moved.body.parent).toBe('channel');
  });

  it('search playground: the summary an agent reads and the hits', async () => {
    const { page } = suite.ui;
    await suite.ui.open(`${P}/search`);
    await page.getByLabel('Query').fill('roas');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('[data-loaded="true"]').waitFor();
    const summary = await page.getByTestId('summary').textContent();
    expect(summary).toMatch(/roas/i);
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
    await suite.ui.check('search');
    // Explain: each hit's score parts (stems, fields, idf, the graph boost).
    await page.getByLabel('Explain scores (editors and up)').check();
    await page.getByLabel('Query').fill('why is our return on ad spend lower this week on facebook');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('tbody tr details').first().waitFor();
    const titles = await page.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(titles).toEqual(expect.arrayContaining(['ROAS', 'investigate-roas-drop']));
    await page.locator('tbody tr details summary').first().click();
    const parts = page.getByRole('table', { name: /^Score parts of / }).first();
    await expect.poll(() => parts.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await parts.textContent()).toMatch(/return/);
    await suite.ui.check('search-explain');
    // Dark theme (the header's toggle, kept for the next pages): the editor and the tree.
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await suite.ui.open(`${P}/skills/investigate-roas-drop`);
    await page.getByRole('tab', { name: 'Edit' }).click();
    await page
      .getByRole('region', { name: 'Preview' })
      .getByRole('heading', { name: /^Steps/ })
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await suite.ui.check('skill-edit-dark');
    await suite.ui.open(`${P}/taxonomy?key=kpi.roas`);
    await page.getByRole('region', { name: 'Key kpi.roas' }).waitFor();
    await suite.ui.check('taxonomy-dark');
    await page.getByRole('button', { name: 'Light theme' }).click();
  });
});

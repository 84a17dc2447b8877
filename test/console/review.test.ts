import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdp } from '../support/auth/idp.js';
import { launchBrowser } from '../support/browser.js';
import { ConsoleDriver } from '../support/console.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, type RunningService, startService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// Governed writes in the console: the review screen, history with authorship, diff and restore, the
// agent_writes setting, and what each role is offered. One service, one browser per store.

const P = 'proj_demo';
const PACING = 'budget-pacing-check';
const ROAS = 'investigate-roas-drop';
type CallResult = { isError?: boolean; structuredContent?: unknown; content?: unknown };
const dataOf = (r: CallResult) => (r.structuredContent as { data: Record<string, any> }).data;

describe.each(STORES)('console: governed writes [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  let browser: Browser;
  let ui: ConsoleDriver;
  let agent: ModernClient;
  const tokens = new Map<string, string>();
  const rest = (sub: string, path: string, init: { method?: string; json?: unknown } = {}) =>
    api(`${service.url}${path}`, { ...init, headers: { authorization: `Bearer ${tokens.get(sub)}` } });

  /**
   * A fresh browser context signed in as `sub` with a token of the test issuer. The tab's session
   * storage carries it as a typed token would be (the OAuth redirect itself is auth.test.ts's).
   */
  const as = async (sub: string, viewport?: { width: number; height: number }) => {
    await ui.close();
    const page = await ui.start(viewport);
    page.on('dialog', (d) => void d.accept());
    await ui.context.addInitScript((token: string) => {
      sessionStorage.setItem('context-hub.console.token', token);
    }, tokens.get(sub)!);
    return page;
  };
  const proposeSkill = async (name: string, edit: (body: string) => string) => {
    const skill = (await rest('ann', `/api/skills/${name}?project_id=${P}`)).body;
    const added = (await agent.callTool({
      name: 'add_skill',
      arguments: { project_id: P, name, description: skill.description, body_md: edit(skill.body_md) },
    })) as CallResult;
    expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
    expect(dataOf(added).status).toBe('pending_review');
    return dataOf(added).proposal_id as string;
  };

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, { demo: true, env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1' }) });
    const system = service.app.systemContext();
    const members = [
      { subject: 'ann', role: 'viewer', grants: [{ project_id: P, role: 'admin' }] },
      { subject: 'ed', role: 'viewer', grants: [{ project_id: P, role: 'editor' }] },
      { subject: 'vic', role: 'viewer', grants: [{ project_id: P, role: 'viewer' }] },
      { subject: 'agent', role: 'viewer', grants: [{ project_id: P, role: 'editor' }] },
    ] as const;
    for (const m of members) {
      await service.app.services.org.members.create(system, { ...m, grants: [...m.grants] });
      tokens.set(m.subject, await idp.token(m.subject));
    }
    agent = await connectModern(service.url, tokens.get('agent'));
    browser = await launchBrowser();
    ui = new ConsoleDriver(browser, service.url, store);
    await ui.start();
  });
  afterAll(async () => {
    await agent?.close();
    await ui?.close();
    await browser?.close();
    await service?.close();
    await idp?.close();
  });

  it('agent_writes: an admin picks review from the explained options; an editor sees it read-only', async () => {
    const page = await as('ann');
    await ui.open(`${P}/settings`);
    const shown = page.getByTestId('agent-writes');
    await shown.getByText('Publish').waitFor();
    // The header names the role here: ann's grant makes her admin of this project, a viewer elsewhere.
    const role = page.getByTestId('header-role');
    expect(await role.textContent()).toBe('role in this project: admin');
    expect(await page.locator('.identity').getAttribute('title')).toMatch(
      /^your role in proj_demo; organization role viewer;/,
    );
    await ui.check('settings-admin');
    await page.getByRole('radio', { name: /^Review/ }).check();
    await page.getByRole('button', { name: 'Save agent writes' }).click();
    await shown.getByText('Review', { exact: true }).waitFor();
    expect((await rest('ann', `/api/projects/${P}`)).body.agent_writes).toBe('review');

    const member = await as('ed');
    await ui.open(`${P}/settings`);
    await member.getByTestId('agent-writes').getByText('Review', { exact: true }).waitFor();
    expect(await member.getByTestId('header-role').textContent()).toBe('role in this project: editor');
    await member.getByRole('link', { name: 'Context Hub' }).click();
    await member.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(await member.getByTestId('header-role').textContent()).toBe('organization role: viewer');
    await ui.open(`${P}/settings`);
    expect(await member.getByRole('radio').count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Save agent writes' }).count()).toBe(0);
    await ui.check('settings-member');
  });

  it('an MCP add_skill becomes a proposal; the admin approves it with a comment; history credits the agent', async () => {
    const id = await proposeSkill(ROAS, (b) =>
      b.replace('\n## Acceptance', '9. **Tell the channel owner**: share the finding.\n\n## Acceptance'),
    );
    const page = await as('ann');
    await ui.open(`${P}/proposals`);
    const row = page.getByRole('row').filter({ hasText: id });
    await row.getByText('test-modern 1.0.0').waitFor();
    expect(await row.textContent()).toMatch(/agent.*mcp/);
    expect(await row.textContent()).toContain(ROAS);
    await page.getByTestId('pending-count').getByText('1').waitFor();
    await ui.check('proposals-list');

    await row.getByRole('link', { name: id }).click();
    await page.getByRole('heading', { level: 1, name: `Proposal ${id}` }).waitFor();
    const diff = page.getByRole('table', { name: 'Body, proposal against its base' });
    await diff.locator('td.add').filter({ hasText: 'Tell the channel owner' }).waitFor();
    expect(await diff.locator('td.del').count()).toBe(0);
    await page.getByRole('list', { name: 'Step changes' }).getByText('Tell the channel owner').waitFor();
    await page.getByText('The current version is the base').waitFor();
    await ui.check('proposal-detail');

    await page.getByText('Edit before approving').click();
    const description = page.getByLabel('Description to publish');
    await description.fill(`${await description.inputValue()} Reviewed.`);
    const edit = page.getByLabel('Body to publish (Markdown)');
    await edit.fill((await edit.inputValue()).replace('share the finding.', 'share the finding in their channel.'));
    await page.getByLabel('Comment').fill('Good: owners need to hear it.');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByTestId('decision-comment').getByText('Good: owners need to hear it.').waitFor();
    await page.getByRole('link', { name: 'version 2' }).click();
    await page.getByText('Version 2 of 2').waitFor();
    await page.locator('ol.steps').getByText('Tell the channel owner').waitFor();
    await page.getByText('share the finding in their channel.').waitFor();
    const published = await rest('ann', `/api/skills/${ROAS}?project_id=${P}`);
    expect(published.body.description).toMatch(/ Reviewed\.$/);
    expect(await page.getByTestId('pending-count').count()).toBe(0);
    await page.getByRole('tab', { name: 'History' }).click();
    const v2 = page.getByRole('row').filter({ hasText: 'Version 2' });
    await v2.getByText('test-modern 1.0.0').waitFor();
    expect(await v2.textContent()).toMatch(/agent\s*mcp/);
    await ui.check('skill-history');
  });

  it('a member’s console edit becomes a proposal they follow; the admin rejects it with a comment', async () => {
    const member = await as('ed', { width: 390, height: 844 });
    await ui.open(`${P}/knowledge/roas-definition`);
    await member.locator('article[data-loaded="true"]').waitFor();
    await member.getByRole('tab', { name: 'Edit' }).click();
    const body = member.getByLabel('Body (Markdown)');
    await body.fill(`${await body.inputValue()}\n\nROAS below 1 loses money.\n`);
    await member.getByRole('button', { name: 'Save as next version' }).click();
    // 202 pending_review: the console goes to the proposal.
    const heading = member.getByRole('heading', { level: 1, name: /^Proposal prop_/ });
    await heading.waitFor();
    const id = (await heading.textContent())!.replace('Proposal ', '');
    await member.getByRole('button', { name: 'Withdraw' }).waitFor();
    expect(await member.getByRole('button', { name: /Approve|Reject/ }).count()).toBe(0);
    expect(await member.locator('dd').filter({ hasText: /^ed/ }).textContent()).toContain('console');
    await member.getByRole('table', { name: 'Body, proposal against its base' }).getByText('ROAS below 1').waitFor();
    await ui.check('proposal-member');

    const page = await as('ann');
    await ui.open(`${P}/proposals/${id}`);
    await page.getByLabel('Comment').fill('Say it in the definition, not below it.');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByTestId('decision-comment').getByText('Say it in the definition').waitFor();
    const stored = (await rest('ed', `/api/proposals/${id}`)).body;
    expect(stored).toMatchObject({ status: 'rejected', decided_by: 'ann', author: { subject: 'ed', via: 'console' } });
    expect((await rest('ann', `/api/knowledge/roas-definition?project_id=${P}`)).body.version_number).toBe(1);

    // A sheet's history: a REST write, compared and restored from the console.
    const sheet = (await rest('ann', `/api/knowledge/roas-definition?project_id=${P}`)).body;
    const put = await rest('ann', `/api/knowledge/roas-definition?project_id=${P}`, {
      method: 'PUT',
      json: { title: 'ROAS, defined', body_md: sheet.body_md, owner: sheet.owner },
    });
    expect(put.status).toBe(200);
    await ui.open(`${P}/knowledge/roas-definition`);
    await page.getByRole('tab', { name: 'History' }).click();
    const v2 = page.getByRole('row').filter({ hasText: 'Version 2' });
    expect(await v2.textContent()).toMatch(/ann\s*rest/);
    await page.getByRole('button', { name: 'Compare' }).click();
    const changes = page.getByTestId('version-diff').getByRole('region', { name: 'Changes' });
    await changes.getByText('ROAS, defined').waitFor();
    await page.getByTestId('version-diff').getByText('The bodies are the same.').waitFor();
    await page.getByRole('button', { name: 'Restore this version (1)' }).click();
    await page.getByText('Restored as version 3.').waitFor();
    expect((await rest('ann', `/api/knowledge/roas-definition?project_id=${P}`)).body.title).toBe(sheet.title);
  });

  it('stale: after a reviewer’s direct console edit, the proposal is approved on top of current', async () => {
    const id = await proposeSkill(PACING, (b) =>
      b.replace('\n## Acceptance', '8. **Agent step**: post the pacing table.\n\n## Acceptance'),
    );
    const page = await as('ann');
    await ui.open(`${P}/skills/${PACING}`);
    await page.getByText('Version 1 of 1').waitFor();
    await page.getByRole('tab', { name: 'Edit' }).click();
    const body = page.getByLabel('Body (Markdown)');
    const text = await body.inputValue();
    await body.fill(
      text
        .replace(/^2\. \*\*Compute expected spend\*\*.*\n/m, '')
        .replace('\n## Acceptance', '8. **Ann check**: ask finance.\n\n## Acceptance'),
    );
    await page.getByRole('button', { name: 'Save as next version' }).click();
    // A reviewer's edit publishes directly, recorded as written from the console.
    await page.getByText('Saved as version 2.').waitFor();
    await page.getByRole('tab', { name: 'History' }).click();
    const v2 = page.getByRole('row').filter({ hasText: 'Version 2' });
    expect(await v2.textContent()).toMatch(/ann\s*console/);

    await ui.open(`${P}/proposals/${id}`);
    await page.getByText('moved on since this proposal was written').waitFor();
    expect(await page.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    const current = page.getByRole('table', { name: 'Body, proposal against the current version' });
    await current.locator('td.del').filter({ hasText: 'Ann check' }).waitFor();
    await ui.check('proposal-stale');
    await page.getByRole('button', { name: 'Approve on top of current (rebase)' }).click();
    await page.getByRole('link', { name: 'version 3' }).waitFor();
    const v3 = (await rest('ann', `/api/skills/${PACING}?project_id=${P}`)).body;
    expect(v3).toMatchObject({ version: 3, author: { subject: 'agent', via: 'mcp', proposal_id: id } });
  });

  it('history: two versions compared with steps added and removed; restore writes the next version', async () => {
    const page = await as('ann');
    await ui.open(`${P}/skills/${PACING}`);
    await page.getByText('Version 3 of 3').waitFor();
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByLabel('Compare version').selectOption('2');
    await page.getByLabel('with version').selectOption('3');
    await page.getByRole('button', { name: 'Compare' }).click();
    const steps = page.getByTestId('version-diff').getByRole('list', { name: 'Step changes' });
    await steps.getByRole('listitem').filter({ hasText: 'Agent step' }).getByText('added').waitFor();
    await steps.getByRole('listitem').filter({ hasText: 'Compute expected spend' }).getByText('added').waitFor();
    await steps.getByRole('listitem').filter({ hasText: 'Ann check' }).getByText('removed').waitFor();
    const table = page.getByRole('table', { name: 'Body, version 2 against version 3' });
    await table.locator('td.add').filter({ hasText: 'Agent step' }).waitFor();
    await ui.check('skill-diff');

    await page.getByRole('button', { name: 'Restore this version (2)' }).click();
    await page.getByText('Restored as version 4.').waitFor();
    await page.getByText('Version 4 of 4').waitFor();
    const [v2, v4] = await Promise.all(
      [2, 4].map(async (v) => (await rest('ann', `/api/skills/${PACING}?project_id=${P}&version=${v}`)).body),
    );
    expect(v4.body_md).toBe(v2.body_md);
    expect(v4.author).toMatchObject({ subject: 'ann', via: 'console' });

    // A viewer reads the history but is offered no restore and no decision.
    const viewer = await as('vic');
    await ui.open(`${P}/skills/${PACING}`);
    await viewer.getByText('Version 4 of 4').waitFor();
    await viewer.getByRole('tab', { name: 'History' }).click();
    await viewer.getByRole('button', { name: 'Version 1' }).waitFor();
    expect(await viewer.getByRole('button', { name: /Restore/ }).count()).toBe(0);
    await ui.check('skill-history-viewer');

    // An editor's restore under review is a proposal: the console follows the answer.
    const member = await as('ed');
    await ui.open(`${P}/skills/${PACING}`);
    await member.getByText('Version 4 of 4').waitFor();
    await member.getByRole('tab', { name: 'History' }).click();
    await member.getByRole('button', { name: 'Restore this version (1)' }).click();
    await member.getByRole('heading', { level: 1, name: /^Proposal prop_/ }).waitFor();
    await member.getByRole('button', { name: 'Withdraw' }).click();
    await member.locator('.badge').getByText('withdrawn').waitFor();
    expect((await rest('ann', `/api/skills/${PACING}?project_id=${P}`)).body.version).toBe(4);
  });

  it('a change of the final newline alone shows the last line once, marked as diff -u marks it', async () => {
    const topic = 'data-freshness';
    const sheet = (await rest('ann', `/api/knowledge/${topic}?project_id=${P}`)).body;
    expect(sheet.body_md.endsWith('\n')).toBe(false);
    const put = await rest('ann', `/api/knowledge/${topic}?project_id=${P}`, {
      method: 'PUT',
      json: { title: sheet.title, body_md: `${sheet.body_md}\n`, owner: sheet.owner },
    });
    expect(put.status).toBe(200);
    const diff = (await rest('ann', `/api/knowledge/${topic}/diff?project_id=${P}&from=1&to=2`)).body;
    expect(diff.unified_diff).toMatch(/\n-.*\n\\ No newline at end of file\n\+.*\n$/);

    const page = await as('ann', { width: 390, height: 844 });
    await ui.open(`${P}/knowledge/${topic}`);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Compare' }).click();
    const table = page.getByRole('table', { name: 'Body, version 1 against version 2' });
    const marker = table.getByTestId('no-eol');
    await marker.waitFor();
    expect(await marker.count()).toBe(1);
    expect(await marker.textContent()).toBe('\\ No newline at end of file');
    // The last line once, the same on both sides; the marker under the old one, which lacked the newline.
    const lastLine = sheet.body_md.split('\n').at(-1);
    const row = table.getByRole('row').filter({ has: page.getByTestId('no-eol') });
    expect(await row.locator('td.diff-text.same').allTextContents()).toEqual([
      expect.stringContaining(lastLine),
      expect.stringContaining(lastLine),
    ]);
    expect(await row.locator('td.diff-text').first().getByTestId('no-eol').count()).toBe(1);
    expect(await table.locator('td.del, td.add').count()).toBe(0);
    await ui.check('diff-final-newline');
  });
});

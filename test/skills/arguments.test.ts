import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveLegacyArguments, parseArgumentsSection, renderArgumentsSection } from '../../src/modules/skills/index.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

describe('the ## Arguments section', () => {
  it('reads what it renders, flags included', () => {
    const specs = [
      { name: 'channel', description: 'The channel to check.', required: true, complete: 'channel' },
      { name: 'key', complete: 'business_key' },
      { name: 'note' },
    ];
    const section = renderArgumentsSection(specs);
    expect(section).toBe(
      '## Arguments\n\n- `channel` (required, channel): The channel to check.\n- `key` (business_key)\n- `note`\n',
    );
    expect(parseArgumentsSection(`# T\n\n${section}\n## Later\n- \`not_me\`\n`)).toEqual(specs);
    expect(parseArgumentsSection('# T\n\n## Steps\n1. x\n')).toBeUndefined();
  });

  it('moves a legacy list out of metadata and out of verbatim front matter, every other byte kept', () => {
    const raw =
      '---\nname: a-b\ndescription: d # note\nlicense: MIT\nmetadata:\n  author: ana\n  arguments:\n    - name: day\n      required: true\n    - metric\nallowed-tools: Read\n---\n';
    const moved = moveLegacyArguments({
      metadata: { author: 'ana', arguments: [{ name: 'day', required: true }, 'metric'] },
      body_md: '# T\n',
      frontmatter_raw: raw,
    });
    expect(moved.metadata).toEqual({ author: 'ana' });
    expect(moved.frontmatter_raw).toBe(
      '---\nname: a-b\ndescription: d # note\nlicense: MIT\nmetadata:\n  author: ana\nallowed-tools: Read\n---\n',
    );
    expect(moved.body_md).toBe('# T\n\n## Arguments\n\n- `day` (required)\n- `metric`\n');
    const alone = moveLegacyArguments({
      metadata: { arguments: ['x'] },
      body_md: 'b',
      frontmatter_raw: '---\nname: a\ndescription: d\nmetadata: {arguments: [x]}\n---\n',
    });
    expect(alone.frontmatter_raw).toBe('---\nname: a\ndescription: d\n---\n');
  });
});

describe.each(STORES)('a SKILL.md with metadata.arguments [%s]', (store) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(store, { demo: true });
  });
  afterAll(async () => service?.close());

  it('still imports: the prompt keeps its arguments, the export has them in the body', async () => {
    const file =
      '---\nname: legacy-args\ndescription: "Old style: arguments in metadata"\nlicense: Apache-2.0\n# kept\nmetadata:\n  author: ops\n  arguments:\n    - name: channel\n      description: The channel.\n      required: true\n---\n# Legacy\n\n## Steps\n1. Do it.\n';
    const res = await api(`${service.url}/api/skills/import?project_id=proj_demo`, {
      method: 'POST',
      body: file,
      headers: { 'content-type': 'text/markdown' },
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ author: 'ops' });
    const exported = await (await fetch(`${service.url}/api/skills/legacy-args/SKILL.md?project_id=proj_demo`)).text();
    expect(exported).toBe(
      '---\nname: legacy-args\ndescription: "Old style: arguments in metadata"\nlicense: Apache-2.0\n# kept\nmetadata:\n  author: ops\n---\n# Legacy\n\n## Steps\n1. Do it.\n\n## Arguments\n\n- `channel` (required): The channel.\n',
    );
    const prompts = await api(`${service.url}/api/skills/legacy-args/prompt?project_id=proj_demo`);
    expect(prompts.status).toBe(200);
    expect(JSON.stringify(prompts.body)).toContain('"channel"');
  });
});

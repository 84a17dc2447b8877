import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDataDir } from '../support/seeded-data-dir.js';
import { cliToEnd, folderTree, freePort, runCli, stop, waitReady, type CliProcess } from '../support/process.js';
import { api, TEST_SECRETS_KEY } from '../support/service.js';

const TOKEN = 'static-token-for-the-hub-files-cli-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

const cli = cliToEnd;

const tree = folderTree;

/**
 * `context-hub export|import`: through the serving process while `serve` holds
 * the embedded store, and on the store itself when it is stopped.
 */
describe('context-hub export and import', () => {
  const dirs: string[] = [];
  const tempDir = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ch-${name}-`));
    dirs.push(dir);
    return dir;
  };
  let env: Record<string, string>;
  let server: CliProcess | undefined;

  beforeAll(async () => {
    // The demo a first start seeds, copied (seeded-data-dir.ts): the first start is not this suite's subject.
    const dataDir = await seededDataDir();
    dirs.push(dataDir);
    env = {
      DATA_DIR: dataDir,
      SECRETS_KEY: TEST_SECRETS_KEY,
      SERVICE_AUTH_MODE: 'static',
      SERVICE_STATIC_TOKEN: TOKEN,
      FX_RATES_URL: 'http://127.0.0.1:9/no-feed',
    };
  });
  afterAll(async () => {
    if (server) await stop(server);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips the demo hub through a served store, byte for byte, and refuses a bad folder', async () => {
    const port = await freePort();
    server = runCli(['serve'], { ...env, PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, server, 4000);
    const demo = tempDir('hubfiles-demo');
    const exported = await cli(['export', 'proj_demo', demo], env);
    expect(exported.out).toMatch(/exported proj_demo into .*: \d+ files/);
    expect(exported.code).toBe(0);
    const files = tree(demo);
    expect(Object.keys(files)).toContain('taxonomy.yaml');
    expect(Object.keys(files).some((p) => /^skills\/[a-z0-9-]+\/SKILL\.md$/.test(p))).toBe(true);
    expect(Object.keys(files).some((p) => /^knowledge\/.+\.md$/.test(p))).toBe(true);

    const created = await api(`${url}/api/projects`, {
      method: 'POST',
      headers: auth,
      json: { id: 'proj_copy', name: 'C' },
    });
    expect(created.status).toBe(201);
    const imported = await cli(['import', 'proj_copy', demo], env);
    expect(imported.out).toMatch(/import into proj_copy: \d+ change\(s\) \(applied\)/);
    expect(imported.code).toBe(0);
    const copy = tempDir('hubfiles-copy');
    expect((await cli(['export', 'proj_copy', copy], env)).code).toBe(0);
    expect(tree(copy)).toEqual(files);

    const again = await cli(['import', 'proj_copy', copy], env);
    expect(again.out).toContain('import into proj_copy: 0 change(s) (nothing to change)');

    const bad = tempDir('hubfiles-bad');
    fs.mkdirSync(path.join(bad, 'knowledge'));
    fs.writeFileSync(path.join(bad, 'knowledge', 'bad.md'), '---\ntitle: Fine\nowner: [1, 2]\n---\nbody\n');
    fs.writeFileSync(path.join(bad, 'taxonomy.yaml'), 'keys:\n  - key: Not A Key\n    label: x\n');
    const refused = await cli(['import', 'proj_copy', bad], env);
    expect(refused.code).toBe(65);
    expect(refused.out).toContain('knowledge/bad.md:3: owner');
    expect(refused.out).toContain('taxonomy.yaml:2: key: key must be a dotted lowercase key');

    const unauthorized = await cli(
      ['import', '--token', 'wrong-token-0123456789012345678901234', 'proj_copy', copy],
      env,
    );
    expect(unauthorized.code).toBe(77);
    await stop(server);
    server = undefined;
  }, 600_000);

  it('plans with --dry-run and applies on the stopped store', async () => {
    const copy = tempDir('hubfiles-local');
    // A file of the layout the hub does not hold is removed by export; anything else stays.
    fs.mkdirSync(path.join(copy, 'skills', 'gone'), { recursive: true });
    fs.writeFileSync(path.join(copy, 'skills', 'gone', 'SKILL.md'), '---\nname: gone\ndescription: x\n---\n');
    fs.writeFileSync(path.join(copy, 'README.md'), '# Our hub\n');
    const exported = await cli(['export', 'proj_copy', copy], env);
    expect(exported.code).toBe(0);
    expect(exported.out).toContain('removed skills/gone/SKILL.md (no longer in the hub)');
    expect(fs.existsSync(path.join(copy, 'skills', 'gone', 'SKILL.md'))).toBe(false);
    expect(fs.readFileSync(path.join(copy, 'README.md'), 'utf8')).toBe('# Our hub\n');
    const skill = Object.keys(tree(copy)).find((p) => p.startsWith('skills/'))!;
    fs.appendFileSync(path.join(copy, skill), '\nOne more line.\n');
    fs.mkdirSync(path.join(copy, 'skills', 'extra', 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(copy, 'skills', 'extra', 'scripts', 'run.sh'), 'echo\n');
    const name = skill.split('/')[1]!;
    const plan = await cli(['import', '--dry-run', 'proj_copy', copy], env);
    expect(plan.code).toBe(0);
    expect(plan.out).toContain('(dry run, nothing written)');
    expect(plan.out).toContain(`update skill ${name} (${skill})`);
    expect(plan.out).toContain('ignored: skills/extra/scripts/run.sh');
    expect(plan.out).not.toContain('README.md');
    const applied = await cli(['import', 'proj_copy', copy], env);
    expect(applied.out).toMatch(new RegExp(`update skill ${name} → v2`));
    fs.appendFileSync(path.join(copy, skill), 'Proposed line.\n');
    const propose = await cli(['import', '--propose', 'proj_copy', copy], env);
    expect(propose.out).toMatch(/proposal prop_[0-9a-f]+ awaits review/);
    expect(propose.code).toBe(0);
  }, 600_000);
});

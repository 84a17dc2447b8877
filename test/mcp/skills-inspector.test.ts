import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdp } from '../support/auth/idp.js';
import { api, type RunningService, startService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// The MCP Inspector's CLI, an official client other than the SDK's SkillsClient, lists the
// Skills and checks each entry against SEP-2640 (conformance, frontmatter, every file's size and
// digest) with --verify, exactly as an operator would run it against a deployment.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const INSPECTOR_CLI = path.join(root, 'node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js');
const P = 'proj_demo';

interface FileReport {
  uri: string;
  status: string;
  actualDigest?: string;
}
interface SkillReport {
  uri: string;
  name: string;
  conformance: unknown[];
  frontmatter: unknown[];
  files: FileReport[];
}

/** One run of the Inspector CLI: its exit code, its NDJSON reports and what it said on stderr. */
async function inspect(
  url: string,
  args: string[],
  token?: string,
): Promise<{ code: number; reports: SkillReport[]; stderr: string }> {
  // A home of its own: the CLI keeps a catalog of servers there.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-inspector-'));
  const auth = token ? ['--header', `Authorization: Bearer ${token}`] : [];
  try {
    return await new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        [INSPECTOR_CLI, `${url}/mcp`, ...args, ...auth],
        { env: { ...process.env, HOME: home, MCP_CATALOG_PATH: path.join(home, 'mcp.json') } },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          if (code === -1) return reject(error);
          const reports = stdout
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as SkillReport);
          resolve({ code, reports, stderr });
        },
      );
    });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** Every report clean: no conformance or frontmatter finding, every file verified. */
function expectAllVerified(reports: SkillReport[]): void {
  for (const report of reports) {
    expect({ uri: report.uri, conformance: report.conformance, frontmatter: report.frontmatter }).toEqual({
      uri: report.uri,
      conformance: [],
      frontmatter: [],
    });
    expect(report.files.length).toBeGreaterThan(0);
    for (const file of report.files)
      expect({ uri: file.uri, status: file.status }).toEqual({ uri: file.uri, status: 'verified' });
  }
}

describe.each(STORES)('the MCP Inspector lists and verifies the Skills [%s]', (store) => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(store, { demo: true });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('skills/list --verify: the 7 demo Skills, every file verified, and new digests after a revision', async () => {
    const first = await inspect(service.url, ['--method', 'skills/list', '--verify']);
    expect(first.code).toBe(0);
    expect(new Set(first.reports.map((r) => r.name)).size).toBe(7);
    expectAllVerified(first.reports);

    const name = 'validate-campaign-launch';
    const revised = await api(`${service.url}/api/skills/${name}?project_id=${P}`, {
      method: 'PUT',
      json: { description: 'Revised before the Inspector looked again.' },
    });
    expect(revised.status).toBe(200);
    const skillMd = (reports: SkillReport[]) =>
      reports.find((r) => r.name === name)?.files.find((f) => f.uri.endsWith('/SKILL.md'))?.actualDigest;
    const second = await inspect(service.url, ['--method', 'skills/list', '--verify']);
    expect(second.code).toBe(0);
    expectAllVerified(second.reports);
    expect(skillMd(second.reports)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(skillMd(second.reports)).not.toBe(skillMd(first.reports));
  });

  it('skills/get --verify of one Skill; an unknown one fails the check', async () => {
    const uri = `skill://${P}/validate-campaign-launch/SKILL.md`;
    const one = await inspect(service.url, ['--method', 'skills/get', '--uri', uri, '--verify']);
    expect(one.code).toBe(0);
    expect(one.reports.map((r) => r.uri)).toEqual([uri]);
    expectAllVerified(one.reports);
    const unknown = await inspect(service.url, [
      '--method',
      'skills/get',
      '--uri',
      `skill://${P}/no-such-skill/SKILL.md`,
      '--verify',
    ]);
    expect(unknown.code).not.toBe(0);
  });
});

describe.each(STORES)('the MCP Inspector under oauth grants [%s]', (store) => {
  const OTHER = 'proj_inspector_other';
  let idp: TestIdp;
  let service: RunningService;
  let ann: string;

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, {
      demo: true,
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/no-feed' }),
    });
    const owner = await idp.token('owner-1');
    const as = (method: string, p: string, json?: unknown) =>
      api(`${service.url}${p}`, { method, headers: { authorization: `Bearer ${owner}` }, json });
    expect((await as('POST', '/api/projects', { id: OTHER, name: OTHER })).status).toBe(201);
    const skill = {
      project_id: OTHER,
      name: 'other-only',
      description: 'Not for ann.',
      body_md: '## Steps\n1. One.\n',
    };
    expect((await as('POST', '/api/skills', skill)).status).toBe(201);
    const member = await as('POST', '/api/org/members', {
      subject: 'ann',
      role: 'viewer',
      grants: [{ project_id: P, role: 'viewer' }],
    });
    expect(member.status).toBe(201);
    ann = await idp.token('ann');
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it("a member sees and verifies only its project's Skills; the other project's URI fails like an unknown one", async () => {
    const listed = await inspect(service.url, ['--method', 'skills/list', '--verify'], ann);
    expect(listed.code).toBe(0);
    expect(listed.reports).toHaveLength(7);
    expect(listed.reports.every((r) => r.uri.startsWith(`skill://${P}/`))).toBe(true);
    expectAllVerified(listed.reports);

    const hidden = await inspect(
      service.url,
      ['--method', 'skills/get', '--uri', `skill://${OTHER}/other-only/SKILL.md`, '--verify'],
      ann,
    );
    const unknown = await inspect(
      service.url,
      ['--method', 'skills/get', '--uri', `skill://${OTHER}/no-such-skill/SKILL.md`, '--verify'],
      ann,
    );
    expect(hidden.code).not.toBe(0);
    expect(hidden.code).toBe(unknown.code);
    expect(hidden.stderr).toContain('No skill is served at');
    expect(hidden.stderr.split('other-only').join('<name>')).toBe(unknown.stderr.split('no-such-skill').join('<name>'));
  });
});

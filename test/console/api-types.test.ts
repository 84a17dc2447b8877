import fs from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';

const GENERATED = path.resolve(import.meta.dirname, '../../web/console/api/openapi.gen.ts');
const HEADER =
  "// Generated from the running service's /api/openapi.json by openapi-typescript: do not edit.\n" +
  '// Regenerate with `npm run console:api` (test/console/api-types.test.ts fails while it differs).\n';

/**
 * The console's API types are generated from the running service's OpenAPI document and checked
 * in; a route or schema change the console does not follow fails here (and so CI).
 * UPDATE_CONSOLE_API=1 writes the file instead of comparing.
 */
describe('console API types', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService('pglite');
  });
  afterAll(async () => {
    await service?.close();
  });

  it('web/console/api/openapi.gen.ts matches what /api/openapi.json generates', async () => {
    const document = await (await fetch(`${service.url}/api/openapi.json`)).json();
    const generated = HEADER + astToString(await openapiTS(document, { alphabetize: true }));
    if (process.env.UPDATE_CONSOLE_API === '1') fs.writeFileSync(GENERATED, generated);
    const checkedIn = fs.existsSync(GENERATED) ? fs.readFileSync(GENERATED, 'utf8') : '';
    expect(checkedIn, 'run `npm run console:api` and commit web/console/api/openapi.gen.ts').toBe(generated);
  });
});

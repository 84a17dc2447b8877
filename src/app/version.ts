import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../platform/db/migrate.js';

export const VERSION: string = (
  JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

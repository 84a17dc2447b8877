// The node flags `npm start` runs the service with (package.json scripts.start), so a benchmark
// measures the process users run, not a variant of it.
import fs from 'node:fs';
import path from 'node:path';

export function serviceNodeFlags(root: string): string[] {
  const start = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  const words = start.split(/\s+/);
  const script = words.indexOf('dist/cli.js');
  if (words[0] !== 'node' || script < 0)
    throw new Error(`package.json start is not "node [flags] dist/cli.js …": ${start}`);
  // `--import ./x.js` names a file of that checkout: absolute, so a child in another cwd finds it.
  return words
    .slice(1, script)
    .map((word, i, flags) => (flags[i - 1] === '--import' && word.startsWith('./') ? path.join(root, word) : word));
}

// npm run bench:parsers -- [--b=<checkout>] [--rounds=5] [--write]
//
// The parsers of untrusted input on their largest realistic inputs: the line diff (`diff`) of
// Skill/Knowledge bodies, the CSV export reader (`csv-parse` behind strict decoding and bounds),
// and the ECB XML reader (`saxes`) on a history-sized feed. With --b=<checkout> the same inputs go
// through that checkout's code as well, round by round (A, B, then B, A, ...), so a checkout of the
// commit before the libraries came in (hand-written Myers, CSV splitter and XML tokenizer) measures
// what they cost. Such a checkout needs node_modules (a symlink to this one's will do).
// --write replaces the "## parsers" section of BENCHMARKS.md.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ecbXml } from '../test/money/ecb-fixtures.js';
import { writeBenchmarkSection } from './support/benchmarks-file.js';

const root = path.resolve(import.meta.dirname, '..');
const args: Record<string, string> = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [key, ...value] = a.replace(/^--/, '').split('=');
    return [key, value.length ? value.join('=') : 'true'];
  }),
);
const ROUNDS = Number(args.rounds ?? 5);

type Diff = (a: string[], b: string[]) => { kind: string }[];
type Feed = (bytes: Uint8Array, options: { latestDate: string }) => { days: unknown[] };
interface Impl {
  diffLines: Diff;
  readCsv: (source: Readable) => Promise<number>;
  parseEcbFeed: Feed;
}

const load = (checkout: string, file: string) => import(pathToFileURL(path.join(checkout, file)).href);

async function implOf(checkout: string): Promise<Impl> {
  const diff = await load(checkout, 'src/platform/line-diff.ts');
  const ecb = await load(checkout, 'src/modules/money/ecb-feed.ts');
  const readerFile = path.join(checkout, 'src/modules/providers/export-reader.ts');
  let readCsv: Impl['readCsv'];
  if (fs.existsSync(readerFile)) {
    const { readExport } = await load(checkout, 'src/modules/providers/export-reader.ts');
    readCsv = async (source) => {
      let n = 0;
      for await (const _ of readExport(source, { format: 'csv', delimiter: ',' })) n += 1;
      return n;
    };
  } else {
    // Before export-reader.ts: the provider's own loop (readline, an odd quote count continues a
    // record, splitCsv), which was not exported.
    const { splitCsv } = await load(checkout, 'src/modules/providers/csv.provider.ts');
    readCsv = async (source) => {
      const lines = readline.createInterface({ input: source, crlfDelay: Infinity });
      let header: string[] | undefined;
      let pending = '';
      let n = 0;
      for await (const raw of lines) {
        pending = pending ? `${pending}\n${raw}` : raw;
        if ((pending.match(/"/g)?.length ?? 0) % 2 === 1) continue;
        const fields: string[] = splitCsv(pending, ',');
        pending = '';
        if (!header) header = fields.map((h) => h.trim());
        else if (!(fields.length === 1 && fields[0] === '')) n += 1;
      }
      return n;
    };
  }
  return { diffLines: diff.diffLines, readCsv, parseEcbFeed: ecb.parseEcbFeed };
}

// Deterministic inputs.
let seed = 3;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const text = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} ${Math.floor(random() * 1e6)}\n`);
const mutate = (a: string[], p: number) =>
  a.flatMap((l) => (random() < p ? (random() < 0.5 ? [] : [`changed ${l}`]) : [l]));
const diffCase = (n: number, p: number): [string[], string[]] => {
  const a = text(n);
  return [a, mutate(a, p)];
};

const csvRows = 200_000;
const csv = Buffer.from(
  `${[
    'day,campaign,name,spend,clicks,impressions',
    ...Array.from(
      { length: csvRows },
      (_, i) =>
        `2026-05-${String(1 + (i % 28)).padStart(2, '0')},c${i},"Spring sale, ""A"" ${i}",${(i % 97) + 0.5},${i % 13},${i * 7}`,
    ),
  ].join('\n')}\n`,
);
const chunks = () =>
  Readable.from(
    (function* () {
      for (let i = 0; i < csv.length; i += 65536) yield csv.subarray(i, i + 65536);
    })(),
  );

// A note pasted into one cell: each line of it used to rescan the whole record read so far.
const longFieldLines = 5_000;
const longField = Buffer.from(
  `day,campaign,note\n2026-05-01,c1,"${Array.from({ length: longFieldLines }, (_, i) => `note line ${i}, with a comma`).join('\n')}"\n`,
);

interface Case {
  name: string;
  run: (impl: Impl) => Promise<unknown> | unknown;
}

async function cases(a: Impl): Promise<Case[]> {
  const { BUNDLED_SNAPSHOT } = await import('../src/modules/money/money.snapshot.js');
  const latest = { latestDate: '2099-01-01' };
  // eurofxref-hist.xml's size: every day of the bundled history as XML, newest first.
  const history = a.parseEcbFeed(fs.readFileSync(BUNDLED_SNAPSHOT), latest).days as {
    date: string;
    rates: Map<string, string>;
  }[];
  const xml = new TextEncoder().encode(
    ecbXml([...history].reverse().map((d) => ({ time: d.date, rates: Object.fromEntries(d.rates) }))),
  );
  const diffs: [string, number, number][] = [
    ['diff: 200-line body, 10 % of lines changed', 200, 0.1],
    ['diff: 10,000 lines, 1 % changed', 10_000, 0.01],
    ['diff: 10,000 lines, 8 % changed (~1,300 edits)', 10_000, 0.08],
    ['diff: 10,000 lines, 30 % changed (past the 2,000-edit cap)', 10_000, 0.3],
  ];
  return [
    ...diffs.map(([name, n, p]): Case => {
      const [x, y] = diffCase(n, p);
      return { name, run: (impl) => impl.diffLines(x, y) };
    }),
    {
      name: `CSV: ${csvRows.toLocaleString('en')} rows (${(csv.length / 1e6).toFixed(0)} MB), quoted fields`,
      run: async (impl) => {
        const n = await impl.readCsv(chunks());
        if (n !== csvRows) throw new Error(`read ${n} rows`);
      },
    },
    {
      name: `CSV: one quoted field of ${longFieldLines.toLocaleString('en')} lines (${(longField.length / 1e3).toFixed(0)} kB)`,
      run: async (impl) => {
        const n = await impl.readCsv(Readable.from([longField]));
        if (n !== 1) throw new Error(`read ${n} rows`);
      },
    },
    {
      name: `ECB XML: ${history.length.toLocaleString('en')} days (${(xml.length / 1e6).toFixed(0)} MB)`,
      run: (impl) => impl.parseEcbFeed(xml, latest),
    },
  ];
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

const a = await implOf(root);
const b = args.b ? await implOf(path.resolve(root, args.b)) : undefined;
const table = [`| input | this build (ms) |${b ? ' B (ms) | B/A |' : ''}`, `|---|---:|${b ? '---:|---:|' : ''}`];
for (const c of await cases(a)) {
  const times: { A: number[]; B: number[] } = { A: [], B: [] };
  const timed = async (side: 'A' | 'B', impl: Impl) => {
    const started = performance.now();
    await c.run(impl);
    times[side].push(performance.now() - started);
  };
  await c.run(a); // warm-up
  if (b) await c.run(b);
  for (let round = 0; round < ROUNDS; round++) {
    if (b && round % 2 === 1) {
      await timed('B', b);
      await timed('A', a);
    } else {
      await timed('A', a);
      if (b) await timed('B', b);
    }
  }
  const ma = median(times.A);
  const row = `| ${c.name} | ${ma.toFixed(1)} |${b ? ` ${median(times.B).toFixed(1)} | ${(median(times.B) / ma).toFixed(2)} |` : ''}`;
  process.stdout.write(`${row}\n`);
  table.push(row);
}

if (args.write) {
  writeBenchmarkSection(
    path.join(root, 'BENCHMARKS.md'),
    'parsers',
    [
      '## parsers',
      '',
      `Command: \`npm run bench:parsers -- --write${b ? ' --b=<checkout of the commit before the libraries>' : ''}\` ` +
        `(median of ${ROUNDS} rounds${b ? ', A and B alternating' : ''}; node ${process.version}).`,
      '',
      ...table,
    ].join('\n'),
  );
}

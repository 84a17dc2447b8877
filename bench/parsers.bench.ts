// npm run bench:parsers -- [--b=<checkout>] [--rounds=5] [--write]
//
// The maintained parser libraries against the code they replaced (or would have), on the largest realistic
// inputs, round by round (this build first, then the other first, ...):
// - the line diff of Skill/Knowledge bodies: this build's hand-written Myers against the `diff`
//   package (jsdiff, a devDependency kept for this comparison), same edit cap, same edit counts;
// - the CSV export reader (`csv-parse` behind strict decoding and bounds) and the ECB XML reader
//   (`saxes`) against --b=<checkout>'s, e.g. a checkout of the commit before them (hand-written CSV
//   splitter and XML tokenizer); such a checkout needs node_modules (a symlink to this one's does).
// --write replaces the "## parsers" section of BENCHMARKS.md.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { diffArrays } from 'diff';
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
// Before the ZIP reader was yauzl the parser was synchronous; awaiting covers both checkouts.
type Feed = (bytes: Uint8Array, options: { latestDate: string }) => { days: unknown[] } | Promise<{ days: unknown[] }>;
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
  /** This build; the other side is `other` when given (the checkout of --b otherwise, if any). */
  run: (impl: Impl) => Promise<unknown> | unknown;
  other?: { name: string; run: () => unknown };
}

/** The `diff` package's line diff with the same cap as line-diff.ts (past it, a block replace). */
function jsdiffLines(a: string[], b: string[], maxEdits = 2000): { kind: string }[] {
  const changes = diffArrays(a, b, { maxEditLength: maxEdits });
  if (!changes) {
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
    return [...a.slice(start).map(() => ({ kind: 'delete' })), ...b.slice(start).map(() => ({ kind: 'insert' }))];
  }
  return changes.flatMap((c) => c.value.map(() => ({ kind: c.added ? 'insert' : c.removed ? 'delete' : 'equal' })));
}

async function cases(a: Impl): Promise<Case[]> {
  const { BUNDLED_SNAPSHOT } = await import('../src/modules/money/index.js');
  const latest = { latestDate: '2099-01-01' };
  // eurofxref-hist.xml's size: every day of the bundled history as XML, newest first.
  const history = (await a.parseEcbFeed(fs.readFileSync(BUNDLED_SNAPSHOT), latest)).days as {
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
    ['diff: 100,000 lines, 1.2 % changed (past the cap)', 100_000, 0.012],
  ];
  const edits = (ops: { kind: string }[]) => ops.filter((o) => o.kind !== 'equal').length;
  return [
    ...diffs.map(([name, n, p]): Case => {
      const [x, y] = diffCase(n, p);
      if (edits(a.diffLines(x, y)) !== edits(jsdiffLines(x, y))) throw new Error(`${name}: edit counts differ`);
      return {
        name,
        run: (impl) => impl.diffLines(x, y),
        other: { name: '`diff` package', run: () => jsdiffLines(x, y) },
      };
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
const table = ['| input | this build (ms) | compared with | other (ms) | other / this |', '|---|---:|---|---:|---:|'];
for (const c of await cases(a)) {
  const other = c.other ?? (b ? { name: `--b checkout`, run: () => c.run(b) } : undefined);
  const times: { A: number[]; B: number[] } = { A: [], B: [] };
  const timed = async (side: 'A' | 'B', run: () => unknown) => {
    const started = performance.now();
    await run();
    times[side].push(performance.now() - started);
  };
  const mine = () => c.run(a);
  await mine(); // warm-up
  if (other) await other.run();
  for (let round = 0; round < ROUNDS; round++) {
    if (other && round % 2 === 1) {
      await timed('B', other.run);
      await timed('A', mine);
    } else {
      await timed('A', mine);
      if (other) await timed('B', other.run);
    }
  }
  const ma = median(times.A);
  const row = other
    ? `| ${c.name} | ${ma.toFixed(1)} | ${other.name} | ${median(times.B).toFixed(1)} | ${(median(times.B) / ma).toFixed(2)} |`
    : `| ${c.name} | ${ma.toFixed(1)} | – | – | – |`;
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
      `Command: \`npm run bench:parsers -- --write${b ? ' --b=<checkout without the parser libraries>' : ''}\` ` +
        `(median of ${ROUNDS} rounds, the two sides alternating; node ${process.version}).`,
      '',
      ...table,
    ].join('\n'),
  );
}

import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};
/**
 * Text assets are sent gzipped to clients that accept it, compressed once, on the first request
 * that can take it: at level 9 that is ~9 ms of CPU for the whole console, which every start paid
 * (and every test service) though most never serve it.
 */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json']);

export interface ConsoleAsset {
  body: Buffer;
  gzip: Buffer | undefined;
  type: string;
  /** Hashed file names never change content: cache them for good; the shell is revalidated. */
  immutable: boolean;
}

class AssetFile implements ConsoleAsset {
  readonly type: string;
  readonly immutable: boolean;
  private compressed: Buffer | undefined;

  constructor(
    readonly body: Buffer,
    private readonly compressible: boolean,
    ext: string,
    rel: string,
  ) {
    this.type = TYPES[ext] ?? 'application/octet-stream';
    this.immutable = rel.startsWith('assets/');
  }

  get gzip(): Buffer | undefined {
    if (!this.compressible) return undefined;
    this.compressed ??= gzipSync(this.body, { level: 9 });
    return this.compressed;
  }
}

/**
 * The built console (dist/web/console: index.html and hashed assets), read once at start and
 * answered from memory. Absent (a checkout that never ran the web build): every path answers 404.
 */
export class ConsoleAssets {
  private constructor(private readonly files: ReadonlyMap<string, ConsoleAsset>) {}

  static load(dir: string | undefined = findConsoleDir()): ConsoleAssets {
    const files = new Map<string, ConsoleAsset>();
    if (dir && fs.existsSync(dir)) {
      for (const rel of walk(dir)) {
        const ext = path.extname(rel);
        const body = fs.readFileSync(path.join(dir, rel));
        files.set(rel, new AssetFile(body, COMPRESSIBLE.has(ext) && body.length > 512, ext, rel));
      }
    }
    return new ConsoleAssets(files);
  }

  /** A file by its path under /console/, or undefined. */
  file(rel: string): ConsoleAsset | undefined {
    return this.files.get(rel);
  }

  /** The app shell every other /console/* path answers with (the client-side router takes over). */
  get shell(): ConsoleAsset | undefined {
    return this.files.get('index.html');
  }
}

function walk(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...walk(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** dist/web/console next to the running code: dist/ when built, the repository's dist/ from src/. */
function findConsoleDir(): string | undefined {
  const here = import.meta.dirname;
  for (const candidate of [path.resolve(here, '../../web/console'), path.resolve(here, '../../../dist/web/console')]) {
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return undefined;
}

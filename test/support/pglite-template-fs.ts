import fs from 'node:fs';
import { MemoryFS } from '@electric-sql/pglite';

/** Where PGlite keeps its data directory in its in-memory filesystem. */
const PGDATA = '/pglite/data';

interface TarEntry {
  path: string;
  directory: boolean;
  offset: number;
  size: number;
  mtime: number;
}

/** The entries of a plain ustar archive (PGlite's own dump: files and folders, short names). */
function entriesOf(tar: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  const decoder = new TextDecoder();
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (at: number, length: number) => {
      const bytes = header.subarray(at, at + length);
      const end = bytes.indexOf(0);
      return decoder.decode(end >= 0 ? bytes.subarray(0, end) : bytes);
    };
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156]!);
    if (type !== '0' && type !== '5' && type !== '\0') throw new Error(`template: unexpected tar entry type ${type}`);
    offset += 512;
    entries.push({
      path: name.replace(/^\/+|\/+$/g, ''),
      directory: type === '5',
      offset,
      size,
      mtime: Number.parseInt(field(136, 12).trim() || '0', 8),
    });
    offset += Math.ceil(size / 512) * 512;
  }
  return entries;
}

/** An Emscripten in-memory filesystem node, as far as this file touches it. */
interface MemNode {
  node_ops: { mknod(parent: MemNode, name: string, mode: number, dev: number): MemNode };
  contents: unknown;
  usedBytes: number;
  atime: number;
  mtime: number;
}

/** The modes FS.mkdir and FS.writeFile give (S_IFDIR | 0777, S_IFREG | 0666). */
const DIRECTORY_MODE = 0o40777;
const FILE_MODE = 0o100666;

/** Each template (the migrated one, the demo: demo-store.ts), read and indexed once per worker. */
const loaded = new Map<string, { mtimeMs: number; tar: Uint8Array; entries: TarEntry[] }>();

function template(file: string) {
  const mtimeMs = fs.statSync(file).mtimeMs;
  let held = loaded.get(file);
  if (held?.mtimeMs !== mtimeMs) {
    const tar = new Uint8Array(fs.readFileSync(file));
    held = { mtimeMs, tar, entries: entriesOf(tar) };
    loaded.set(file, held);
  }
  return held;
}

/**
 * Copies of the template whose stores were closed, kept for the next stores of this worker. A new
 * 68 MB buffer costs ~0.24 s of CPU in page faults (first touch) on this machine; overwriting a
 * spare one with the template costs ~5 ms. Every byte of a spare is overwritten before reuse.
 */
const spares = new Map<number, Uint8Array[]>();
const MAX_SPARES = 2;

/**
 * An in-memory PGlite filesystem that starts out holding the template's data directory. PGlite's
 * own `loadDataDir` reads a Blob into a buffer, untars it into copies and writes each file through
 * the filesystem's write path: ~0.65 s of CPU per store. Here one copy of the plain tar is made per
 * store and each file's contents is a view of it (the store owns its copy, so its writes land
 * there): ~0.4 s with a path resolved per file, ~0.25 s with the nodes made under their parents.
 * What the store holds is byte for byte the same. `release()`, once the store is closed (never
 * before: its files are views of the copy), gives the copy back for a later store.
 */
export function templateFilesystem(plainTar: string): { filesystem: MemoryFS; release(): void } {
  const { tar, entries } = template(plainTar);
  let own: Uint8Array | undefined;
  const filesystem = new (class extends MemoryFS {
    override async initialSyncFs(): Promise<void> {
      await super.initialSyncFs();
      // any: the emscripten FS of PGlite's module is untyped.
      const FS = (this as any).pg.Module.FS;
      own = takeSpare(tar.length) ?? new Uint8Array(tar.length);
      own.set(tar);
      FS.mkdirTree(PGDATA);
      // The nodes are made through the in-memory filesystem's own `mknod` under their parent node,
      // which is what FS.mkdir and FS.writeFile end in, without resolving and normalizing a path
      // three times per file (mkdirTree, writeFile, utime): ~0.18 s of CPU per store before.
      const folders = new Map<string, MemNode>([['', FS.lookupPath(PGDATA).node as MemNode]]);
      const folder = (rel: string): MemNode => {
        const known = folders.get(rel);
        if (known) return known;
        const cut = rel.lastIndexOf('/');
        const parent = folder(cut < 0 ? '' : rel.slice(0, cut));
        const node = parent.node_ops.mknod(parent, rel.slice(cut + 1), DIRECTORY_MODE, 0);
        folders.set(rel, node);
        return node;
      };
      for (const entry of entries) {
        if (entry.directory) {
          folder(entry.path);
          continue;
        }
        const cut = entry.path.lastIndexOf('/');
        const parent = folder(cut < 0 ? '' : entry.path.slice(0, cut));
        const node = parent.node_ops.mknod(parent, entry.path.slice(cut + 1), FILE_MODE, 0);
        node.contents = own.subarray(entry.offset, entry.offset + entry.size);
        node.usedBytes = entry.size;
        node.atime = node.mtime = entry.mtime * 1000;
      }
    }
  })();
  return {
    filesystem,
    release: () => {
      if (!own) return;
      const same = spares.get(own.length) ?? [];
      spares.set(own.length, same);
      if (same.length < MAX_SPARES) same.push(own);
      own = undefined;
    },
  };
}

/** A spare of the template's size (each template has its own). */
function takeSpare(length: number): Uint8Array | undefined {
  return spares.get(length)?.pop();
}

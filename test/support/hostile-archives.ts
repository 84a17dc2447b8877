import zlib from 'node:zlib';
import { type Header, pack } from 'tar-stream';

/**
 * Archives an attacker would send to POST /api/projects/{id}/import. Well-formed ones
 * come from tar-stream; the few shapes it will not write (a GNU long name, a gzip bomb streamed
 * without holding it) are made here byte by byte, as the attacker's own tools would.
 */
export interface HostileEntry {
  name: string;
  type?: Header['type'];
  data?: Buffer | string;
  linkname?: string;
}

/** A tar of the entries; `end: false` leaves out the end-of-archive blocks; `gzip: false` a bare tar. */
export async function tarOf(entries: HostileEntry[], options: { gzip?: boolean; end?: boolean } = {}) {
  const archive = pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  for (const e of entries) {
    const data = e.data === undefined ? undefined : Buffer.from(e.data);
    const header = { name: e.name, type: e.type ?? 'file', mtime: new Date(0), linkname: e.linkname };
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (data) archive.entry({ ...header, size: data.length }, data, done);
      else archive.entry(header, done);
    });
  }
  archive.finalize();
  await collected;
  let tar = Buffer.concat(chunks);
  if (options.end === false) tar = tar.subarray(0, tar.length - 1024);
  return options.gzip === false ? tar : zlib.gzipSync(tar);
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** One raw ustar/GNU header block. */
function header(name: string, size: number, type: string): Buffer {
  const block = Buffer.alloc(512);
  block.write(name.slice(0, 100), 0, 'utf8');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(0, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar  \0', 257, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7), 148, 'ascii');
  return block;
}

const pad = (length: number) => Buffer.alloc((512 - (length % 512)) % 512);

/**
 * The long-names archive: `count` empty files, each named by a GNU long-name record of `nameBytes`
 * bytes (4,300 names of 60 KB fit in 541 KB of tar.gz and once drew an answer of 246 MiB).
 */
export function gnuLongNames(count: number, nameBytes: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const name = Buffer.from(`deep/${String(i).padStart(6, '0')}-${'n'.repeat(nameBytes - 12)}\0`);
    parts.push(header('././@LongLink', name.length, 'L'), name, pad(name.length), header('x', 0, '0'));
  }
  parts.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(parts));
}

/** A tar.gz with one file of `bytes` zero bytes, compressed as it is made (a bomb of ~1000:1). */
export async function gzipBomb(name: string, bytes: number): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  gzip.write(header(name, bytes, '0'));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= zeros.length) {
    if (!gzip.write(left >= zeros.length ? zeros : zeros.subarray(0, left)))
      await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end(Buffer.concat([pad(bytes), Buffer.alloc(1024)]));
  await ended;
  return Buffer.concat(out);
}

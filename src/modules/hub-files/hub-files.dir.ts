import fs from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../../platform/errors.js';
import type { TarEntry } from '../../platform/tar.js';
import { FolderReader, type ImportFolder, normalPath } from './hub-files.folder.js';
import { roleOf, TAXONOMY_FILE } from './hub-files.format.js';

/**
 * The CLI's side of context as code: a folder on disk read for `import` and written by `export`,
 * never leaving it. The layout trees (taxonomy.yaml, skills/, knowledge/ and
 * everything under them) must hold no symbolic link at all, whether it points inside the folder
 * or out of it: one is refused before anything is read, written or deleted, and nothing is ever
 * opened through a link (O_NOFOLLOW). Entries whose names start with a dot (.git) are skipped,
 * as is everything outside the layout trees. The folder itself may be given through a link.
 */
const TOP = [TAXONOMY_FILE, 'skills', 'knowledge'];

function linkRefused(rel: string, full: string): ValidationError {
  let target = '';
  try {
    target = ` → ${fs.readlinkSync(full)}`;
  } catch {
    // gone meanwhile: the name is enough
  }
  const message =
    `${rel} is a symbolic link${target}; export and import follow no links inside taxonomy.yaml, ` +
    'skills/ and knowledge/ (replace it with the file or folder itself)';
  // No field list: the message names the link, and the CLI prints it once.
  return new ValidationError([], `Refused: ${message}. Nothing was read or changed.`, 'folder_link');
}

interface Found {
  rel: string;
  kind: 'file' | 'directory' | 'other';
  size: number;
}

/** Every entry of the layout trees under `root` (lstat only), refusing the first symbolic link. */
function walkLayout(root: string, visit: (entry: Found) => void): void {
  const walk = (rel: string) => {
    const full = path.join(root, rel);
    const stat = fs.lstatSync(full, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isSymbolicLink()) throw linkRefused(rel, full);
    if (stat.isDirectory()) {
      visit({ rel, kind: 'directory', size: 0 });
      if (rel === TAXONOMY_FILE) return;
      for (const name of fs.readdirSync(full).sort()) if (!name.startsWith('.')) walk(`${rel}/${name}`);
      return;
    }
    visit({ rel, kind: stat.isFile() ? 'file' : 'other', size: stat.size });
  };
  for (const top of TOP) walk(top);
}

/** A regular file's bytes, opened without following a link in its last component. */
function readNoFollow(full: string): Buffer {
  const fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The folder `dir` as an import reads it (the same bounds as an archive's). */
export function readDir(dir: string): ImportFolder {
  const root = fs.realpathSync(dir);
  const reader = new FolderReader('import_invalid');
  walkLayout(root, ({ rel, kind, size }) => {
    if (reader.offer({ path: rel, type: kind, size })) reader.add(rel, readNoFollow(path.join(root, rel)));
  });
  return reader.done();
}

/**
 * Writes an export into `dir`: its files, and removes the files of the layout it no longer holds
 * (a deleted Skill's SKILL.md). Every check (paths of the answer, links in the folder) comes before
 * the first change, so a refusal changes nothing.
 */
export function writeDir(dir: string, files: TarEntry[]): { removed: string[] } {
  for (const file of files) {
    // Only paths of the layout are written: nothing from an answer lands outside <dir>.
    if (normalPath(file.path) !== file.path || roleOf(file.path).kind === 'ignored')
      throw new Error(`unexpected path in the export: ${file.path.slice(0, 200)}`);
  }
  fs.mkdirSync(dir, { recursive: true });
  const root = fs.realpathSync(dir);
  const existing: string[] = [];
  walkLayout(root, ({ rel, kind }) => {
    if (kind === 'file' && roleOf(rel).kind !== 'ignored') existing.push(rel);
  });
  const wanted = new Set(files.map((f) => f.path));
  const removed = existing.filter((p) => p !== TAXONOMY_FILE && !wanted.has(p));
  for (const stale of removed) fs.unlinkSync(path.join(root, stale));
  for (const file of files) {
    const target = path.join(root, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW;
    const fd = fs.openSync(target, flags, 0o644);
    try {
      fs.writeFileSync(fd, file.data);
    } finally {
      fs.closeSync(fd);
    }
  }
  return { removed };
}

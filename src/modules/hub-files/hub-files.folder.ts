import { ValidationError } from '../../platform/errors.js';
import type { Pacer } from '../../platform/pacer.js';
import { readTarGz, type TarEntry, type TarEntryType, TarFormatError } from '../../platform/tar.js';
import { type DocumentKindName, MAX_BODY_BYTES } from '../documents/index.js';
import { MAX_FRONT_MATTER_BYTES } from '../skills/index.js';
import {
  byCodePoint,
  decodeText,
  readKnowledgeFile,
  readSkillFile,
  roleOf,
  TAXONOMY_FILE,
} from './hub-files.format.js';
import type { FileProblem } from './hub-files.problems.js';
import type { Folder } from './hub-files.plan.js';
import { readTaxonomy } from './hub-files.taxonomy.js';

const MiB = 1024 * 1024;

/**
 * What one import reads at most, whatever it is sent: every bound is checked as the
 * entry arrives, before its bytes are read, so neither memory nor the answer grows with what a
 * hostile archive holds.
 */
export const IMPORT_LIMITS = {
  /** Bytes an archive inflates to (headers and ignored files included): read by chunks, never held. */
  inflatedBytes: 256 * MiB,
  /** Entries of an archive of any type (files, folders). */
  entries: 25_000,
  /** Files of any path. */
  files: 20_000,
  /** Bytes of an entry's name. */
  nameBytes: 1024,
  /** A SKILL.md or Knowledge file: the body's 1 MiB, the front matter's 64 KiB, the `---` lines. */
  objectFileBytes: MAX_BODY_BYTES + MAX_FRONT_MATTER_BYTES + 1024,
  taxonomyBytes: 16 * MiB,
  /** The files of the layout together (the rest is never held). */
  folderBytes: 128 * MiB,
} as const;

/** A refusal lists this many problems (the detail gives their number): the answer stays small. */
export const MAX_PROBLEMS_LISTED = 100;

/** Ignored files are counted; the answer names this many of them, each cut to EXAMPLE_CHARS. */
export const IGNORED_EXAMPLES = 20;
const EXAMPLE_CHARS = 200;

/** A folder as an import reads it: the files of the layout, a bounded account of the rest. */
export interface ImportFolder {
  files: TarEntry[];
  ignored: { count: number; examples: string[] };
  /** Files of the layout refused unread (too large): reported with the file's other problems. */
  problems: FileProblem[];
}

export function emptyFolder(): ImportFolder {
  return { files: [], ignored: { count: 0, examples: [] }, problems: [] };
}

/** "./skills/x/SKILL.md" → "skills/x/SKILL.md"; undefined for a path that leaves the folder. */
export function normalPath(path: string): string | undefined {
  const parts = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  if (path.startsWith('/') || path.startsWith('\\') || parts.some((p) => p === '..')) return undefined;
  return parts.join('/');
}

const example = (path: string) => (path.length > EXAMPLE_CHARS ? `${path.slice(0, EXAMPLE_CHARS)}…` : path);

/**
 * Takes a folder's entries one at a time (from an archive, or the CLI's walk of a directory) and
 * says which to read: the files of the layout within their size bounds. Anything that makes the
 * whole folder unreadable (a path that leaves it, a link, too many entries or bytes) throws a
 * ValidationError with `code`, naming the entry.
 */
export class FolderReader {
  readonly folder = emptyFolder();
  private files = 0;
  private bytes = 0;

  constructor(private readonly code: 'archive_invalid' | 'import_invalid') {}

  private refuse(message: string): never {
    const what = this.code === 'archive_invalid' ? 'The archive' : 'The folder';
    throw new ValidationError([{ path: 'body', message }], `${what} cannot be imported: ${message}.`, this.code);
  }

  /** Whether to read this entry's bytes (then hand them to `add`). */
  offer(entry: { path: string; type: TarEntryType; size: number }): boolean {
    const path = normalPath(entry.path);
    if (path === undefined) this.refuse(`the entry ${example(entry.path)} points outside the folder`);
    if (entry.type === 'symlink' || entry.type === 'link')
      this.refuse(`${example(path)} is a link; a hub folder holds only files and folders`);
    if (entry.type === 'other') this.refuse(`${example(path)} is not a file or a folder`);
    if (entry.type === 'directory') return false;
    this.files += 1;
    if (this.files > IMPORT_LIMITS.files) this.refuse(`it holds more than ${IMPORT_LIMITS.files} files`);
    if (roleOf(path).kind === 'ignored') {
      const ignored = this.folder.ignored;
      ignored.count += 1;
      if (ignored.examples.length < IGNORED_EXAMPLES) ignored.examples.push(example(path));
      return false;
    }
    const limit = path === TAXONOMY_FILE ? IMPORT_LIMITS.taxonomyBytes : IMPORT_LIMITS.objectFileBytes;
    if (entry.size > limit) {
      this.folder.problems.push({ file: path, line: null, message: `is ${entry.size} bytes, more than ${limit}` });
      return false;
    }
    this.bytes += entry.size;
    if (this.bytes > IMPORT_LIMITS.folderBytes)
      this.refuse(`its files of the layout add up to more than ${IMPORT_LIMITS.folderBytes} bytes`);
    return true;
  }

  add(path: string, data: Buffer): void {
    this.folder.files.push({ path: normalPath(path)!, data });
  }

  done(): ImportFolder {
    this.folder.ignored.examples.sort(byCodePoint);
    return this.folder;
  }
}

/**
 * A request body as a folder: only a whole gzip'd tar within IMPORT_LIMITS is one; anything else
 * is 400 archive_invalid, before anything is compared or changed.
 */
export async function readArchive(archive: Buffer): Promise<ImportFolder> {
  const reader = new FolderReader('archive_invalid');
  const limits = {
    maxInflatedBytes: IMPORT_LIMITS.inflatedBytes,
    maxEntries: IMPORT_LIMITS.entries,
    maxNameBytes: IMPORT_LIMITS.nameBytes,
  };
  try {
    const kept = await readTarGz(archive, limits, (entry) => reader.offer(entry));
    for (const entry of kept) reader.add(entry.path, entry.data);
  } catch (error) {
    if (!(error instanceof TarFormatError)) throw error;
    throw new ValidationError(
      [{ path: 'body', message: `the archive ${error.message}` }],
      `The body is not a whole gzip'd tar: the archive ${error.message}. Nothing was changed.`,
      'archive_invalid',
    );
  }
  return reader.done();
}

/** How a document file of each kind is read into the folder. */
const READ_DOCUMENT: Record<
  DocumentKindName,
  (folder: Folder, path: string, key: string, text: string, problems: FileProblem[]) => void
> = {
  skill: (folder, path, name, text, problems) => {
    const skill = readSkillFile(path, name, text, problems);
    if (skill) folder.skills.set(skill.name, skill);
  },
  knowledge: (folder, path, topicId, text, problems) => {
    const sheet = readKnowledgeFile(path, topicId, text, problems);
    if (sheet) folder.knowledge.set(sheet.topic_id, sheet);
  },
};

/** Every file read and checked; problems collected, nothing thrown; the event loop turns between files. */
export async function readFolder(entries: TarEntry[], problems: FileProblem[], pace: Pacer): Promise<Folder> {
  const folder: Folder = { skills: new Map(), knowledge: new Map(), taxonomy: null, taxonomyUnreadable: false };
  const seen = new Set<string>();
  for (const entry of entries) {
    await pace();
    const path = entry.path;
    const role = roleOf(path);
    if (role.kind === 'ignored') continue;
    if (seen.has(path)) {
      problems.push({ file: path, line: null, message: 'appears twice in the archive' });
      continue;
    }
    seen.add(path);
    const { text, problem } = decodeText(path, entry.data);
    if (problem || text === undefined) {
      if (problem) problems.push(problem);
      continue;
    }
    if (role.kind !== 'taxonomy') {
      READ_DOCUMENT[role.kind](folder, path, role.key, text, problems);
    } else {
      const taxonomy = await readTaxonomy(text, problems, pace);
      folder.taxonomy = taxonomy ?? null;
      folder.taxonomyUnreadable = taxonomy === undefined;
    }
  }
  return folder;
}

/** 400 import_invalid with the first MAX_PROBLEMS_LISTED problems; the detail counts them all. */
export function importInvalid(problems: FileProblem[]): ValidationError {
  const listed = problems.slice(0, MAX_PROBLEMS_LISTED);
  const more = problems.length > listed.length ? ` (the first ${listed.length} are listed)` : '';
  return new ValidationError(
    listed.map((p) => ({ path: p.line === null ? p.file : `${p.file}:${p.line}`, message: p.message })),
    `The folder has ${problems.length} problem(s)${more}; nothing was changed.`,
    'import_invalid',
    'Fix each file at the line named, then import again (--dry-run shows the plan without writing).',
  );
}

/**
 * A problem found in one file of a hub folder, apart from the format: the YAML reader reports them
 * too, and the format reads YAML, so defined beside the format the two files imported each other.
 */

/**
 * The hub as files ("context as code"): `skills/<name>/SKILL.md` (Agent Skills),
 * `knowledge/<topic_id>.md` (front matter: title, owner) and `taxonomy.yaml` (keys and links).
 * Reading a file never throws: every problem is collected with its file and line.
 */
export interface FileProblem {
  file: string;
  /** 1-based; null when the problem is the file's name or place rather than a line in it. */
  line: number | null;
  message: string;
}

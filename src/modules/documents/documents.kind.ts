/**
 * What sets one kind of versioned document apart where other modules meet it (proposals, search,
 * the hub folder): the field that names a document, the tool that opens one, the fields a reviewer
 * may edit. Asking this instead of comparing kind names keeps those modules free of per-kind code.
 */
export type DocumentKindName = 'skill' | 'knowledge';

export interface DocumentKind {
  kind: DocumentKindName;
  /** The field that names a document within its project, as the API spells it. */
  keyField: 'name' | 'topic_id';
  /** The read tool an agent calls to open one document. */
  openTool: 'get_procedure' | 'get_knowledge';
  /** The fields a proposal carries and a reviewer may edit before approving it. */
  editable: readonly string[];
  /** Fields derived from the body unless given: a reviewer's new body drops the proposal's copies. */
  derivedFromBody: readonly string[];
}

export const SKILL_DOCUMENT: DocumentKind = {
  kind: 'skill',
  keyField: 'name',
  openTool: 'get_procedure',
  editable: ['description', 'body_md', 'mdm_references', 'acceptance', 'metadata'],
  derivedFromBody: ['mdm_references', 'acceptance'],
};

export const KNOWLEDGE_DOCUMENT: DocumentKind = {
  kind: 'knowledge',
  keyField: 'topic_id',
  openTool: 'get_knowledge',
  editable: ['title', 'body_md', 'owner'],
  derivedFromBody: [],
};

const KINDS: Record<DocumentKindName, DocumentKind> = { skill: SKILL_DOCUMENT, knowledge: KNOWLEDGE_DOCUMENT };

export function documentKind(kind: DocumentKindName): DocumentKind {
  return KINDS[kind];
}

/** The call that opens a document: `{ tool, arguments: { <keyField>: key, project_id } }`. */
export function openCall(kind: DocumentKindName, key: string, projectId: string) {
  const { openTool, keyField } = KINDS[kind];
  return { tool: openTool, arguments: { [keyField]: key, project_id: projectId } };
}

/** The API's `name` / `topic_id` pair for a document key: the kind's own field set, the other null. */
export function keyFields(kind: DocumentKindName, key: string): { name: string | null; topic_id: string | null } {
  const field = KINDS[kind].keyField;
  return { name: field === 'name' ? key : null, topic_id: field === 'topic_id' ? key : null };
}

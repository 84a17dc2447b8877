export {
  documentKind,
  keyFields,
  KNOWLEDGE_DOCUMENT,
  openCall,
  SKILL_DOCUMENT,
  type DocumentKind,
  type DocumentKindName,
} from './documents.kind.js';
export {
  VersionedDocuments,
  versionAuthorship,
  type ApprovedWrite,
  type DocumentDescriptor,
  type DocumentLifecycleDeps,
  type Landed,
  type ReviewedDocuments,
} from './documents.lifecycle.js';
export { writeDocumentsIn, type BatchWriter } from './documents.batch.js';
export {
  AUTHOR_COLUMNS,
  authorValues,
  type AuthorRow,
  type DocumentHead,
  type DocumentTables,
  type KeyPage,
} from './documents.repo.js';
export {
  BodyMd,
  FieldChange,
  fieldChanges,
  MAX_BODY_BYTES,
  RestoreVersionInput,
  VersionDiffQuery,
} from './documents.schemas.js';
export * as documentRows from './documents.repo.js';
export {
  AuthorOutput,
  authorColumns,
  authorOf,
  PendingReviewOutput,
  pendingSummary,
  presentAuthor,
  type PendingReview,
  type ProposedWrite,
  type VersionAuthor,
  type WriteGate,
} from './documents.authorship.js';
export { provenanceOf } from './documents.provenance.js';
export { pendingWriteAnswer } from './documents.pending-answer.js';

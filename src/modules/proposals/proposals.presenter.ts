import { documentKind, keyFields } from '../documents/index.js';
import type { ProposalRow } from './proposals.repo.js';
import type { ProposalDetailOutput, ProposalOutput } from './proposals.schemas.js';

export function presentProposal(row: ProposalRow): ProposalOutput {
  return {
    id: row.id,
    project_id: row.project_id,
    kind: row.kind,
    ...keyFields(row.kind, row.object_key),
    base_version: row.base_version,
    fields: row.fields,
    author: {
      subject: row.author_subject,
      via: row.author_via,
      client:
        row.author_client_name === null
          ? null
          : { name: row.author_client_name, version: row.author_client_version ?? '' },
      request_id: row.request_id,
    },
    created_at: row.created_at.toISOString(),
    status: row.status,
    decided_by: row.decided_by,
    decided_at: row.decided_at?.toISOString() ?? null,
    comment: row.comment,
    published_version: row.published_version,
    superseded_by: row.superseded_by,
  };
}

/** What a proposal's status means for its author, in one line (get_proposal's summary). */
export function statusLine(p: ProposalDetailOutput): string {
  const what = `${p.kind} ${keyOf(p)}`;
  const by = p.decided_by ? ` by ${p.decided_by}` : '';
  const comment = p.comment ? ` Comment: ${p.comment}` : '';
  switch (p.status) {
    case 'pending':
      return `Proposal ${p.id} for ${what} is pending review${p.stale ? ` (the object moved on to v${p.current_version} since your base v${p.base_version})` : ''}.`;
    case 'approved':
      return `Proposal ${p.id} was approved${by}: ${what} v${p.published_version} is published.${comment}`;
    case 'rejected':
      return `Proposal ${p.id} for ${what} was rejected${by}.${comment}`;
    case 'superseded':
      return `Proposal ${p.id} for ${what} was superseded by your newer proposal ${p.superseded_by}.`;
    case 'withdrawn':
      return `Proposal ${p.id} for ${what} was withdrawn by its author.`;
  }
}

export function proposalSummary(p: ProposalDetailOutput): string[] {
  const next =
    p.status === 'pending'
      ? 'A reviewer approves or rejects it; call get_proposal again later to see the decision.'
      : p.status === 'approved'
        ? `Open it with ${openLine(p)}.`
        : p.status === 'rejected'
          ? 'Address the comment and write again to make a new proposal.'
          : '';
  const diffLines = p.diff.against_current.split('\n').filter((l) => l !== '');
  const shown = diffLines.slice(0, 20);
  return [
    statusLine(p),
    ...(next ? [next] : []),
    ...(shown.length > 0 ? ['Diff against the current version (data.diff.against_current):', ...shown] : []),
    ...(diffLines.length > shown.length ? [`… ${diffLines.length - shown.length} more diff lines in data.diff.`] : []),
  ];
}

/** The proposal's document key: its `name` or its `topic_id`, whichever its kind uses. */
function keyOf(p: ProposalDetailOutput): string | null {
  return p[documentKind(p.kind).keyField];
}

/** The read call that opens the published document, as a line of text. */
function openLine(p: ProposalDetailOutput): string {
  const { openTool, keyField } = documentKind(p.kind);
  return `${openTool} {"${keyField}": "${p[keyField]}"}`;
}

import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Answer } from './answer.js';

/**
 * What add_skill and add_knowledge answer: the version saved, or (in a project that reviews
 * agent writes) pending_review with the proposal that holds the change.
 */
export interface WriteAck {
  id: string;
  version_number: number | null;
  status?: 'published' | 'pending_review';
  proposal_id?: string | null;
  next?: string;
}

/**
 * The view of a write: says what was saved and opens that version in place (through `open`), or
 * says the change waits for review and opens nothing.
 */
export function WrittenObject<T>(props: {
  ack: WriteAck;
  /** How the object is named in the notices, e.g. "skill investigate-roas-drop". */
  what: string;
  open: () => Promise<Answer<T>>;
  render: (opened: Answer<T>) => ComponentChildren;
}) {
  const { ack } = props;
  const pending = ack.status === 'pending_review';
  const [opened, setOpened] = useState<Answer<T> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (pending) return;
    props
      .open()
      .then(setOpened)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [ack.id, ack.version_number]);
  if (pending) {
    return (
      <p class="notice" role="status">
        Not published yet: your change to {props.what} is proposal {ack.proposal_id}, pending review. {ack.next}
      </p>
    );
  }
  return (
    <div class="stack">
      <p class="notice" role="status">
        Saved {props.what} as version {ack.version_number}.
      </p>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      {opened ? props.render(opened) : !error && <p class="muted small">Opening it…</p>}
    </div>
  );
}

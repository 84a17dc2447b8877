import { useEffect, useState } from 'preact/hooks';
import type { Answer } from '../../shared/answer.js';
import { type KnowledgeSheet, KnowledgeView } from '../../shared/context-views.js';
import { startView, type ViewProps } from '../../shared/view.js';

/** add_knowledge answers an acknowledgement (id, topic_id, title, version); the view opens that version. */
interface KnowledgeAck {
  id: string;
  topic_id: string;
  title: string;
  version_number: number | null;
  /** Issue 24: a project that reviews agent writes answers pending_review and a proposal id instead. */
  status?: 'published' | 'pending_review';
  proposal_id?: string | null;
  next?: string;
}
const isAck = (d: KnowledgeSheet | KnowledgeAck): d is KnowledgeAck => !('body_md' in d);

function KnowledgeWidget({ answer, host }: ViewProps<KnowledgeSheet | KnowledgeAck>) {
  const [opened, setOpened] = useState<Answer<KnowledgeSheet> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ack = isAck(answer.data) ? answer.data : null;
  const pending = ack?.status === 'pending_review';
  useEffect(() => {
    if (!ack || pending) return;
    host
      .call<KnowledgeSheet>('get_knowledge', {
        topic_id: ack.topic_id,
        version: ack.version_number,
        project_id: answer.projectId,
      })
      .then(setOpened)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [ack?.id, ack?.version_number]);
  if (!ack) return <KnowledgeView sheet={answer.data as KnowledgeSheet} projectId={answer.projectId} host={host} />;
  if (ack && pending) {
    return (
      <p class="notice" role="status">
        Not published yet: your change to knowledge {ack.topic_id} is proposal {ack.proposal_id}, pending review.{' '}
        {ack.next}
      </p>
    );
  }
  return (
    <div class="stack">
      <p class="notice" role="status">
        Saved knowledge {ack.topic_id} as version {ack.version_number}.
      </p>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      {opened ? (
        <KnowledgeView sheet={opened.data} projectId={opened.projectId} host={host} />
      ) : (
        !error && <p class="muted small">Opening it…</p>
      )}
    </div>
  );
}

startView('knowledge', 'get_knowledge', KnowledgeWidget);

import { useEffect, useState } from 'preact/hooks';
import type { Answer } from '../../shared/answer.js';
import { BusinessKeyView, type BusinessKey, type Procedure, ProcedureView } from '../../shared/context-views.js';
import { startView, type ViewProps } from '../../shared/view.js';

/** add_skill answers an acknowledgement (id, name, version); the view opens the saved version. */
interface SkillAck {
  id: string;
  name: string;
  version_number: number | null;
  /** Issue 24: a project that reviews agent writes answers pending_review and a proposal id instead. */
  status?: 'published' | 'pending_review';
  proposal_id?: string | null;
  next?: string;
}
const isAck = (d: Procedure | SkillAck): d is SkillAck => !('steps' in d);

function ProcedureWidget({ answer, host }: ViewProps<Procedure | SkillAck>) {
  const [opened, setOpened] = useState<Answer<Procedure> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ack = isAck(answer.data) ? answer.data : null;
  const pending = ack?.status === 'pending_review';
  useEffect(() => {
    if (!ack || pending) return;
    host
      .call<Procedure>('get_procedure', { name: ack.name, version: ack.version_number, project_id: answer.projectId })
      .then(setOpened)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [ack?.id, ack?.version_number]);
  if (!ack) return <ProcedureSteps answer={answer as Answer<Procedure>} host={host} />;
  if (ack && pending) {
    return (
      <p class="notice" role="status">
        Not published yet: your change to skill {ack.name} is proposal {ack.proposal_id}, pending review. {ack.next}
      </p>
    );
  }
  return (
    <div class="stack">
      <p class="notice" role="status">
        Saved skill {ack.name} as version {ack.version_number}.
      </p>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      {opened ? <ProcedureSteps answer={opened} host={host} /> : !error && <p class="muted small">Opening it…</p>}
    </div>
  );
}

function ProcedureSteps({ answer, host }: ViewProps<Procedure>) {
  const [key, setKey] = useState<Answer<BusinessKey> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const openKey = async (k: string) => {
    try {
      setError(null);
      setKey(await host.call<BusinessKey>('get_business_key', { key: k, project_id: answer.projectId }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div class="stack">
      <ProcedureView procedure={answer.data} projectId={answer.projectId} host={host} onOpenKey={openKey} />
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      {key && (
        <section class="card" aria-label="Opened business key">
          <div class="spread">
            <span class="muted small">Business key</span>
            <button type="button" class="action" onClick={() => setKey(null)}>
              Close
            </button>
          </div>
          <BusinessKeyView businessKey={key.data} onOpenKey={openKey} />
        </section>
      )}
    </div>
  );
}

startView('procedure', 'get_procedure', ProcedureWidget);

import { useState } from 'preact/hooks';
import type { Answer } from '../../shared/answer.js';
import { BusinessKeyView, type BusinessKey, type Procedure, ProcedureView } from '../../shared/context-views.js';
import { startView, type ViewProps } from '../../shared/view.js';
import { type WriteAck, WrittenObject } from '../../shared/write-ack.js';

/** add_skill answers an acknowledgement (id, name, version); the view opens the saved version. */
interface SkillAck extends WriteAck {
  name: string;
}
const isAck = (d: Procedure | SkillAck): d is SkillAck => !('steps' in d);

function ProcedureWidget({ answer, host }: ViewProps<Procedure | SkillAck>) {
  if (!isAck(answer.data)) return <ProcedureSteps answer={answer as Answer<Procedure>} host={host} />;
  const ack = answer.data;
  return (
    <WrittenObject<Procedure>
      ack={ack}
      what={`skill ${ack.name}`}
      open={() =>
        host.call<Procedure>('get_procedure', {
          name: ack.name,
          version: ack.version_number,
          project_id: answer.projectId,
        })
      }
      render={(opened) => <ProcedureSteps answer={opened} host={host} />}
    />
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

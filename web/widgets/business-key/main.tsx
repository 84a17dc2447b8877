import { useState } from 'preact/hooks';
import type { Answer } from '../../shared/answer.js';
import { type BusinessKey, type NextCall, OpenedObject } from '../../shared/context-views.js';
import { startView, type ViewProps } from '../../shared/view.js';

function BusinessKeyWidget({ answer, host }: ViewProps<BusinessKey>) {
  const [shown, setShown] = useState<Answer<unknown>>(answer);
  const [error, setError] = useState<string | null>(null);
  const open = async (next: NextCall) => {
    try {
      setError(null);
      setShown(await host.call(next.tool, { ...next.arguments, project_id: answer.projectId }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div class="stack">
      {shown !== answer && (
        <button type="button" class="action" onClick={() => setShown(answer)}>
          ← Back to {answer.data.key.key}
        </button>
      )}
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      <OpenedObject answer={shown} host={host} onOpen={open} />
    </div>
  );
}

startView('business-key', 'get_business_key', BusinessKeyWidget);

import { type KnowledgeSheet, KnowledgeView } from '../../shared/context-views.js';
import { startView, type ViewProps } from '../../shared/view.js';

function KnowledgeWidget({ answer, host }: ViewProps<KnowledgeSheet>) {
  return <KnowledgeView sheet={answer.data} projectId={answer.projectId} host={host} />;
}

startView('knowledge', 'get_knowledge', KnowledgeWidget);

import { type KnowledgeSheet, KnowledgeView } from '../../shared/context-views.js';
import { startView, type ViewProps } from '../../shared/view.js';
import { type WriteAck, WrittenObject } from '../../shared/write-ack.js';

/** add_knowledge answers an acknowledgement (id, topic_id, title, version); the view opens that version. */
interface KnowledgeAck extends WriteAck {
  topic_id: string;
  title: string;
}
const isAck = (d: KnowledgeSheet | KnowledgeAck): d is KnowledgeAck => !('body_md' in d);

function KnowledgeWidget({ answer, host }: ViewProps<KnowledgeSheet | KnowledgeAck>) {
  if (!isAck(answer.data)) return <KnowledgeView sheet={answer.data} projectId={answer.projectId} host={host} />;
  const ack = answer.data;
  return (
    <WrittenObject<KnowledgeSheet>
      ack={ack}
      what={`knowledge ${ack.topic_id}`}
      open={() =>
        host.call<KnowledgeSheet>('get_knowledge', {
          topic_id: ack.topic_id,
          version: ack.version_number,
          project_id: answer.projectId,
        })
      }
      render={(opened) => <KnowledgeView sheet={opened.data} projectId={opened.projectId} host={host} />}
    />
  );
}

startView('knowledge', 'get_knowledge', KnowledgeWidget);

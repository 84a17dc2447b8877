import { z } from 'zod';
import { ADDITIVE_WRITE, defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { eventLine } from './context-events.presenter.js';
import { AddEventToolInput, EventOutput, ListEventsToolInput } from './context-events.schemas.js';
import type { ContextEventsService } from './context-events.service.js';

const SUMMARY_EVENTS = 25;

export function contextEventTools(events: ContextEventsService) {
  return [
    defineTool({
      name: 'add_context_event',
      title: 'Add a context event',
      description:
        'Records something that happened to a project and may explain its numbers (a release, promotion, outage, tracking change…); anomaly and insight answers then cite it. Days a holiday covers (the types in the anomaly setting expected_event_types) do not fire as anomalies.',
      input: AddEventToolInput,
      view: 'events',
      permission: 'context.write',
      annotations: ADDITIVE_WRITE,
      dataShape: { event: EventOutput },
      run: async (ctx, input) => {
        const { resolved, event } = await events.create(ctx, input);
        return {
          kind: 'enveloped',
          summary: [`Recorded context event ${event.id} in ${event.project_id}.`, eventLine(event)],
          projectId: resolved.project.id,
          provenance: { source: 'context_events', project_resolved_from: resolved.resolvedFrom },
          data: { event },
        };
      },
    }),
    defineTool({
      name: 'list_context_events',
      title: 'List context events',
      description:
        'Lists the context events of a project. Use active_on before attributing a change on that day to performance.',
      input: ListEventsToolInput,
      view: 'events',
      permission: 'context.read',
      annotations: READ_ONLY,
      dataShape: { events: z.array(EventOutput), next_cursor: z.string().nullable() },
      run: async (ctx, input) => {
        const page = await events.list(ctx, input);
        const scope = input.active_on ? ` active on ${input.active_on}` : '';
        return {
          kind: 'enveloped',
          summary: [
            `${page.events.length} context event${page.events.length === 1 ? '' : 's'}${scope} in ${page.resolved.project.id}${page.next_cursor ? ' (more: pass next_cursor)' : ''}.`,
            ...page.events.slice(0, SUMMARY_EVENTS).map(eventLine),
          ],
          projectId: page.resolved.project.id,
          provenance: {
            source: 'context_events',
            project_resolved_from: page.resolved.resolvedFrom,
            ...(input.active_on ? { active_on: input.active_on } : {}),
          },
          data: { events: page.events, next_cursor: page.next_cursor },
        };
      },
    }),
  ];
}

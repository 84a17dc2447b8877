import { defineRoute } from '../../platform/http/route.js';
import {
  CreateEventInput,
  EventListOutput,
  EventOutput,
  EventPathParams,
  ListEventsQuery,
  UpdateEventInput,
} from './context-events.schemas.js';
import type { ContextEventsService } from './context-events.service.js';

export function contextEventRoutes(events: ContextEventsService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/context/events',
      summary: "List a project's context events, newest event_date first (optionally only those active on a day)",
      tags: ['context'],
      rule: { permission: 'context.read' },
      query: ListEventsQuery,
      response: EventListOutput,
      handler: async ({ ctx, query }) => {
        const page = await events.list(ctx, query);
        return { events: page.events, next_cursor: page.next_cursor };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/context/events',
      summary: 'Record a business context event (release, promotion, outage…) for a project',
      tags: ['context'],
      rule: { permission: 'context.write' },
      body: CreateEventInput,
      response: EventOutput,
      successStatus: 201,
      handler: async ({ ctx, body }) => (await events.create(ctx, body)).event,
    }),
    defineRoute({
      method: 'GET',
      url: '/api/context/events/:id',
      summary: 'Read one context event',
      tags: ['context'],
      rule: { permission: 'context.read' },
      params: EventPathParams,
      response: EventOutput,
      handler: async ({ ctx, params }) => events.get(ctx, params.id),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/context/events/:id',
      summary: 'Change a context event (end_date: null clears it)',
      tags: ['context'],
      rule: { permission: 'context.write' },
      params: EventPathParams,
      body: UpdateEventInput,
      response: EventOutput,
      handler: async ({ ctx, params, body }) => events.update(ctx, params.id, body),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/context/events/:id',
      summary: 'Delete a context event',
      tags: ['context'],
      rule: { permission: 'context.write' },
      params: EventPathParams,
      successStatus: 204,
      handler: async ({ ctx, params }) => {
        await events.remove(ctx, params.id);
        return undefined;
      },
    }),
  ];
}

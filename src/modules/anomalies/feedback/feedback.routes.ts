import { defineRoute } from '../../../platform/http/route.js';
import { FeedbackOutput, FeedbackQuery, SuggestOutput } from './feedback.schemas.js';
import type { AnomalyFeedbackService } from './feedback.service.js';

export function anomalyFeedbackRoutes(feedback: AnomalyFeedbackService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/anomalies/feedback',
      summary:
        'Per metric and channel over the last 90 days: anomalies fired, triaged, false positives, confirmed and precision',
      tags: ['anomalies'],
      rule: { permission: 'data.read' },
      query: FeedbackQuery,
      response: FeedbackOutput,
      handler: async ({ ctx, query }) => feedback.precision(ctx, query.project_id),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/anomalies/feedback/suggestions',
      summary:
        'Replays the last 90 days with candidate settings (threshold, seasonality, volume guard) through the evaluator, ' +
        'writing nothing: false positives each would silence and confirmed anomalies it would still fire',
      tags: ['anomalies'],
      rule: { permission: 'data.read' },
      query: FeedbackQuery,
      response: SuggestOutput,
      handler: async ({ ctx, query }) => feedback.suggest(ctx, query.project_id),
    }),
  ];
}

import { z } from 'zod';
import { isValidTimeZone } from '../../platform/config.js';
import { PageQuery } from '../../platform/pagination.js';
import {
  MAX_PROJECT_REFERENCE_LENGTH,
  PROJECT_ID_PATTERN,
  PROJECT_REFERENCE_OR_DEFAULT_PATTERN,
  PROJECT_REFERENCE_PATTERN,
  projectIdOf,
  projectReferenceProblem,
} from './projects.reference.js';

/** A project's own id, exactly: a new project's `id`, the `{id}` of /api/projects/{id}. */
export const ProjectSlug = z
  .string()
  .regex(PROJECT_ID_PATTERN, 'must match ^proj_[a-z0-9][a-z0-9_-]{0,62}$ (e.g. proj_marketing)')
  .describe('Project id, e.g. proj_marketing.');

/**
 * A `project_id` field: the id, or a console URL naming it, reduced here to the id so
 * that every route, tool and service after the parse sees only ids.
 */
export const ProjectId = z
  .string()
  .max(MAX_PROJECT_REFERENCE_LENGTH, { abort: true })
  .regex(PROJECT_REFERENCE_PATTERN, { error: (issue) => projectReferenceProblem(issue.input) })
  .transform(projectIdOf)
  .describe('Project id (e.g. proj_marketing), or a console URL naming it.');

const refProblem = (issue: { input: unknown }) => projectReferenceProblem(issue.input, true);

/**
 * Tools accept `default`, which resolves to the caller's only project. One string
 * schema with one pattern (not a union of `default` and ProjectId): every tool lists this field,
 * and the union's JSON Schema cost twice the tokens in the model-visible tool list.
 */
export const ProjectRef = z
  .string({ error: refProblem })
  .max(MAX_PROJECT_REFERENCE_LENGTH, { abort: true, error: refProblem })
  .regex(PROJECT_REFERENCE_OR_DEFAULT_PATTERN, { error: refProblem })
  .transform(projectIdOf)
  .default('default')
  .describe('Project id, or a console URL naming it; "default": your only project.');

export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD or EUR');

export const TimeZone = z.string().refine(isValidTimeZone, 'must be an IANA time zone such as UTC or Europe/Berlin');

export const CreateProjectInput = z
  .object({
    id: ProjectSlug,
    name: z.string().trim().min(1).max(200),
    reporting_currency: CurrencyCode.optional().describe("Defaults to the organization's reporting currency."),
    timezone: TimeZone.optional().describe("Defaults to the organization's timezone; it defines a KPI day."),
  })
  .strict();
export type CreateProjectInput = z.infer<typeof CreateProjectInput>;

export const ListProjectsQuery = PageQuery;

/** How writes through MCP (and by people who may not review) land in the project. */
export const AgentWrites = z
  .enum(['publish', 'review', 'off'])
  .describe(
    'publish: agent writes become versions at once; review: they become proposals a reviewer approves; off: refused.',
  );

export const ProjectOutput = z.object({
  id: z.string(),
  name: z.string(),
  reporting_currency: z.string(),
  timezone: z.string(),
  agent_writes: AgentWrites,
});
export type ProjectOutput = z.infer<typeof ProjectOutput>;

export const ProjectListOutput = z.object({ projects: z.array(ProjectOutput), next_cursor: z.string().nullable() });

export const ListProjectsToolInput = z.object({}).strict();

export const UpdateProjectInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    reporting_currency: CurrencyCode.optional(),
    timezone: TimeZone.optional(),
    agent_writes: AgentWrites.optional(),
  })
  .strict();
export type UpdateProjectInput = z.infer<typeof UpdateProjectInput>;

export const ProjectPathParams = z.object({ id: ProjectSlug });

export const projectResourceUri = (id: string) => `project://${id}`;

import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { type Completion, NO_COMPLETION, type ValueCompleter } from '../../mcp/kit/completion.js';
import { PROMPT_NOT_FOUND, type PromptCatalog, type PromptPage } from '../../mcp/kit/prompt-catalog.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, encodeCursor } from '../../platform/pagination.js';
import { ProjectRef, type ProjectsService } from '../projects/index.js';
import type { SkillContext } from '../taxonomy/index.js';
import { parseTitle } from './skills.parse.js';
import {
  declaredArguments,
  PROMPT_TEXT_MAX,
  type PromptArgumentSpec,
  promptTitle,
  renderPrompt,
} from './skills.prompt.js';
import * as repo from './skills.repo.js';
import type { SkillOutput } from './skills.schemas.js';
import type { SkillsService } from './skills.service.js';

/** Prompts per prompts/list page. */
export const PROMPT_PAGE_SIZE = 50;
/** Knowledge pointers read for one prompt (the text bounds what it shows). */
const KNOWLEDGE_READ = 40;
/** Projects named in a project_id argument's description. */
const PROJECTS_NAMED = 10;
const PROMPT_CURSOR = z.string().max(64);

/** What a prompt needs of the taxonomy beside the Skill (TaxonomyService.skillContext). */
export interface SkillContextSource {
  skillContext(projectId: string, skill: { id: string; references: string[] }, limit: number): Promise<SkillContext>;
}

/** A Skill as a caller sees it as a prompt: the listing entry, and where the Skill lives. */
export interface SkillPrompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgumentSpec[];
  /** The projects (among the caller's) that hold a live Skill of this name. */
  projects: string[];
}

/**
 * Skills as MCP prompts, with the grants of get_procedure: one prompt per Skill name the
 * caller may read, in any of its projects. The prompt takes `project_id` when the caller sees more
 * than one project (required when several of them hold the Skill), plus the inputs the Skill
 * declares (skills.prompt.ts). prompts/get reads the Skill through SkillsService.get, the call
 * get_procedure makes, so a prompt never shows what the tool would refuse.
 */
export class SkillPromptsService implements PromptCatalog {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly skills: SkillsService,
    private readonly context: SkillContextSource,
    private readonly completer: ValueCompleter,
  ) {}

  async list(ctx: RequestContext, cursor: string | undefined): Promise<PromptPage> {
    const after = decodeCursor(cursor, PROMPT_CURSOR);
    const readable = await this.projects.permittedIds(ctx, 'context.read');
    if (readable.length === 0) return { prompts: [] };
    const rows = await repo.promptRows(this.db, readable, { after, limit: PROMPT_PAGE_SIZE + 1 });
    const prompts = groupByName(rows).map((group) => describe(group, readable.length));
    const page = prompts.slice(0, PROMPT_PAGE_SIZE);
    return {
      prompts: page.map(listed),
      nextCursor: prompts.length > PROMPT_PAGE_SIZE ? encodeCursor(page[page.length - 1]!.name) : undefined,
    };
  }

  /** How one Skill appears as a prompt to this caller (the console's Skill page). */
  async describe(ctx: RequestContext, projectRef: string, name: string): Promise<SkillPrompt> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const found = await this.find(ctx, name);
    if (!found?.prompt.projects.includes(project.id)) {
      throw new NotFoundError('skill_not_found', `No skill named ${name} in project ${project.id}.`);
    }
    return found.prompt;
  }

  async get(ctx: RequestContext, name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const found = await this.find(ctx, name);
    if (!found) throw promptNotFound(name);
    const projectId = await this.projectFor(ctx, found.prompt, args.project_id);
    const { skill } = await this.skills.get(ctx, projectId, name);
    const declared = await this.declaredIn(skill);
    const inputs = checkArguments(declared, args, found.readable > 1);
    const context = await this.context.skillContext(
      projectId,
      { id: skill.id, references: skill.mdm_references },
      KNOWLEDGE_READ,
    );
    const rendered = renderPrompt({
      name: skill.name,
      title: promptTitle(skill.name, parseTitle(skill.body_md)),
      description: skill.description,
      version: skill.version,
      projectId,
      steps: skill.steps,
      acceptance: skill.acceptance,
      inputs,
      keys: context.keys,
      knowledge: context.knowledge,
      moreKnowledge: context.more,
    });
    return {
      description: skill.description,
      messages: [{ role: 'user', content: { type: 'text', text: rendered.text } }],
      _meta: {
        'service.prompt': {
          skill: skill.name,
          version: skill.version,
          project_id: projectId,
          chars: rendered.chars,
          max_chars: PROMPT_TEXT_MAX,
          truncated: rendered.truncated,
          left_out: rendered.left_out,
        },
      },
    };
  }

  async complete(
    ctx: RequestContext,
    name: string,
    argument: { name: string; value: string },
    context: Record<string, string>,
  ): Promise<Completion> {
    const found = await this.find(ctx, name);
    if (!found) throw promptNotFound(name);
    const { prompt } = found;
    if (argument.name === 'project_id') {
      return this.completer.complete(ctx, { kind: 'project', value: argument.value, among: prompt.projects });
    }
    const declared = prompt.arguments.find((a) => a.name === argument.name);
    if (!declared?.complete) return NO_COMPLETION;
    // The project the person chose, else the Skill's only one; an ambiguous choice offers nothing.
    const project = context.project_id || (prompt.projects.length === 1 ? prompt.projects[0] : undefined);
    if (declared.complete === 'project') {
      return this.completer.complete(ctx, { kind: 'project', value: argument.value });
    }
    if (!project) return NO_COMPLETION;
    return this.completer.complete(ctx, { kind: declared.complete, value: argument.value, project });
  }

  /** The Skill named `name` as this caller's prompt, or undefined when no project of the caller holds it. */
  private async find(
    ctx: RequestContext,
    name: string,
  ): Promise<{ prompt: SkillPrompt; readable: number } | undefined> {
    const readable = await this.projects.permittedIds(ctx, 'context.read');
    if (readable.length === 0) return undefined;
    const rows = await repo.promptRowsNamed(this.db, readable, name);
    if (rows.length === 0) return undefined;
    return { prompt: describe(rows, readable.length), readable: readable.length };
  }

  /** The project a prompts/get is for: the one the caller named, else the Skill's only one. */
  private async projectFor(ctx: RequestContext, prompt: SkillPrompt, given: string | undefined): Promise<string> {
    if (given) {
      const ref = ProjectRef.safeParse(given);
      if (!ref.success) {
        throw new ValidationError([{ path: 'arguments.project_id', message: ref.error.issues[0]!.message }]);
      }
      return (await this.projects.resolve(ctx, ref.data, 'context.read')).project.id;
    }
    if (prompt.projects.length === 1) return prompt.projects[0]!;
    throw new ValidationError(
      [{ path: 'arguments.project_id', message: `choose one of: ${prompt.projects.join(', ')}` }],
      `Skill ${prompt.name} is in ${prompt.projects.length} of your projects (${prompt.projects.slice(0, PROJECTS_NAMED).join(', ')}); say which with project_id.`,
      'project_required',
      `Get the prompt again with project_id set, e.g. "${prompt.projects[0]}".`,
    );
  }

  /** The inputs the read version declares (its metadata, else its front matter). */
  private async declaredIn(skill: SkillOutput): Promise<PromptArgumentSpec[]> {
    const row = await repo.findVersion(this.db, skill.id, skill.version);
    if (!row) return [];
    return declaredArguments({ arguments: row.prompt_arguments }, undefined);
  }
}

function promptNotFound(name: string): NotFoundError {
  return new NotFoundError(PROMPT_NOT_FOUND, `Prompt ${name} not found`, {
    hint: 'prompts/list names the prompts you can use.',
  });
}

function groupByName(rows: repo.PromptRow[]): repo.PromptRow[][] {
  const groups: repo.PromptRow[][] = [];
  for (const row of rows) {
    const last = groups[groups.length - 1];
    if (last && last[0]!.name === row.name) last.push(row);
    else groups.push([row]);
  }
  return groups;
}

/**
 * One prompt from the rows of a Skill name (one per project, ordered by project): titled and
 * described from the first, with the arguments it takes for a caller who sees `visible` projects.
 */
function describe(rows: repo.PromptRow[], visible: number): SkillPrompt {
  const first = rows[0]!;
  const projects = rows.map((r) => r.project_id);
  const args: PromptArgumentSpec[] = [];
  if (visible > 1) {
    const named = projects.slice(0, PROJECTS_NAMED).join(', ');
    const more = projects.length > PROJECTS_NAMED ? ` and ${projects.length - PROJECTS_NAMED} more` : '';
    args.push({
      name: 'project_id',
      description:
        projects.length === 1
          ? `The project; default ${projects[0]}, the only one of yours with this Skill.`
          : `The project: ${named}${more}.`,
      required: projects.length > 1,
      complete: 'project',
    });
  }
  args.push(...declaredArguments({ arguments: first.prompt_arguments }, undefined));
  return {
    name: first.name,
    title: promptTitle(first.name, parseTitle(first.body_head)),
    description: first.description,
    arguments: args,
    projects,
  };
}

function listed(prompt: SkillPrompt): Prompt {
  return {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    ...(prompt.arguments.length > 0
      ? {
          arguments: prompt.arguments.map((a) => ({
            name: a.name,
            ...(a.description ? { description: a.description } : {}),
            required: a.required,
          })),
        }
      : {}),
  };
}

/**
 * The declared inputs given, in declaration order; a missing required one or a name the prompt
 * does not take is refused, naming what it takes. An empty value counts as not given.
 */
function checkArguments(
  declared: PromptArgumentSpec[],
  args: Record<string, string>,
  takesProject: boolean,
): [string, string][] {
  const known = new Set([...(takesProject ? ['project_id'] : []), ...declared.map((a) => a.name)]);
  const errors = Object.keys(args)
    .filter((name) => !known.has(name) && name !== 'project_id')
    .map((name) => ({
      path: `arguments.${name}`,
      message: `is not an argument of this prompt; it takes: ${[...known].join(', ') || 'none'}`,
    }));
  for (const a of declared) {
    if (a.required && !args[a.name]) errors.push({ path: `arguments.${a.name}`, message: 'is required' });
  }
  if (errors.length > 0) throw new ValidationError(errors, undefined, 'prompt_arguments_invalid');
  return declared.filter((a) => args[a.name]).map((a) => [a.name, args[a.name]!]);
}

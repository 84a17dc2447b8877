import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Completion } from './completion.js';

/**
 * What a module implements to offer prompts. The handlers that answer prompts/list, prompts/get and
 * completion/complete over it belong to the transport (mcp/prompts.ts), which a module never imports.
 */

/** The code a catalog's NotFoundError carries for a prompt name the caller cannot use. */
export const PROMPT_NOT_FOUND = 'prompt_not_found';

export interface PromptPage {
  prompts: Prompt[];
  nextCursor?: string | undefined;
}

/**
 * The prompts a caller may use, computed per request (they follow the caller's grants): Skills as
 * prompts (modules/skills). A name the caller cannot use is a NotFoundError with PROMPT_NOT_FOUND,
 * the same answer whether or not it exists elsewhere.
 */
export interface PromptCatalog {
  /** One page of prompts; `cursor` is the nextCursor of the page before. */
  list(ctx: RequestContext, cursor: string | undefined): Promise<PromptPage>;
  get(ctx: RequestContext, name: string, args: Record<string, string>): Promise<GetPromptResult>;
  /** Values for one of the prompt's arguments; `context` holds the arguments already given. */
  complete(
    ctx: RequestContext,
    name: string,
    argument: { name: string; value: string },
    context: Record<string, string>,
  ): Promise<Completion>;
}

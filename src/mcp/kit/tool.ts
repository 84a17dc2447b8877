import type { ZodObject, ZodRawShape, ZodType, z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Permission } from '../../platform/auth/permissions.js';

/** What a tool handler gets: the request context plus the call's own channel back to the client. */
export interface ToolContext extends RequestContext {
  /** Sends notifications/progress on this call's response stream (no-op when the client gave no token). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  signal: AbortSignal;
}

/** An enveloped answer: a short summary, provenance and the data keys. */
export interface EnvelopedAnswer {
  kind: 'enveloped';
  summary: string[];
  projectId: string | null;
  provenance: Record<string, unknown>;
  data: Record<string, unknown>;
  /** Data keys that stay inline whatever their size (search hits: an agent cannot act on a hit it was not shown). */
  neverWithhold?: string[];
}

/** A raw answer: one JSON text block, no envelope and no outputSchema. */
export interface RawAnswer {
  kind: 'raw';
  value: unknown;
}

export type ToolAnswer = EnvelopedAnswer | RawAnswer;

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolSpec<S extends ZodObject<ZodRawShape> = ZodObject<ZodRawShape>> {
  name: string;
  title: string;
  /** Tells an agent when to use it and what comes back; shown in tools/list. */
  description: string;
  input: S;
  /** The permission the caller's role must carry (the same mechanism as REST routes). */
  permission: Permission;
  annotations: ToolAnnotations;
  /** For enveloped tools: the shape of `data`; each key becomes value | withheld in the outputSchema. */
  dataShape?: ZodRawShape;
  run(ctx: ToolContext, input: z.output<S>): Promise<ToolAnswer>;
  /**
   * Read-only tools may name the state their answer depends on: calls with equal arguments and an
   * equal token get the same answer, so a finished answer can be reused (the MCP fast path). The token
   * must come from a read made after the call arrived, so it changes with every write that could
   * change the answer; it also checks the caller's access, as `run` would. Undefined: no reuse.
   */
  answerToken?(ctx: RequestContext, input: z.output<S>): Promise<string | undefined>;
  /** The MCP Apps view (web/widgets/<view>) a host renders next to the answer. */
  view?: string;
  /**
   * Who sees the tool (MCP Apps `_meta.ui.visibility`): `['app']` for tools only views call (a
   * metric's series for a chart); they still pass the same gate and permissions as any tool.
   */
  visibility?: ('model' | 'app')[];
}

// A registry holds tools of different input types side by side; each is checked where it is defined.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyToolSpec = ToolSpec<any>;

export function defineTool<S extends ZodObject<ZodRawShape>>(spec: ToolSpec<S>): ToolSpec<S> {
  return spec;
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const ADDITIVE_WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

export type { ZodType };

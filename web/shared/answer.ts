import type { App } from '@modelcontextprotocol/ext-apps';

export type CallToolResult = Awaited<ReturnType<App['callServerTool']>>;

/** The `_meta` key where the service puts the whole answer, nothing withheld (the app channel of the envelope). */
export const APP_PAYLOAD_KEY = 'service.app_payload';

export interface Answer<T> {
  tool: string;
  projectId: string;
  provenance: Record<string, unknown>;
  data: T;
}

/** A tool answer that is an error: its code and the text the service wrote for the agent. */
export class ToolAnswerError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

interface Envelope {
  meta?: { tool?: string; project_id?: string; provenance?: Record<string, unknown> };
  data?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Reads a CallToolResult as the view needs it: the app channel first (it holds what the text
 * channel withheld), structuredContent otherwise. Raw tools (one JSON text block) are read from
 * their text. An isError result becomes a ToolAnswerError with the service's stable code.
 */
export function readAnswer<T>(result: CallToolResult): Answer<T> {
  const text = result.content?.find((c) => c.type === 'text');
  const textValue = text && 'text' in text ? String(text.text) : '';
  if (result.isError) {
    const code = /^([a-z_]+)\b/.exec(textValue)?.[1] ?? null;
    throw new ToolAnswerError(textValue || 'The tool answered with an error.', code);
  }
  const payload = result._meta?.[APP_PAYLOAD_KEY];
  const envelope: Envelope | undefined = isObject(payload)
    ? payload
    : isObject(result.structuredContent)
      ? (result.structuredContent as Envelope)
      : undefined;
  if (envelope && 'data' in envelope) {
    return {
      tool: envelope.meta?.tool ?? '',
      projectId: envelope.meta?.project_id ?? '',
      provenance: envelope.meta?.provenance ?? {},
      data: envelope.data as T,
    };
  }
  try {
    return { tool: '', projectId: '', provenance: {}, data: JSON.parse(textValue) as T };
  } catch {
    throw new ToolAnswerError('The answer carries no data this view can show.', null);
  }
}

/** True when a data key was withheld from structuredContent and the app channel is missing too. */
export function isWithheld(value: unknown): value is { withheld: string; bytes: number } {
  return isObject(value) && value.withheld === 'moved_to_app_channel';
}

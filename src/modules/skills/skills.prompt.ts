/**
 * A Skill as an MCP prompt: the arguments it declares and the text `prompts/get` hands
 * the model. Pure functions; SkillPromptsService (skills.prompts.ts) reads what they need.
 */
import { truncateCodePoints } from '../../mcp/kit/envelope-limits.js';
import { VALUE_KINDS, type ValueKind } from '../../mcp/kit/completion.js';
import type { SkillStep } from './skills.parse.js';

/** The whole message text: at most this many characters (code points), ~4,000 tokens. */
export const PROMPT_TEXT_MAX = 16_000;
/** One step's instruction, one acceptance item, one label or title: cut beyond these. */
const STEP_MAX = 1_500;
const ITEM_MAX = 400;
/** What the smaller sections may take of the budget; the steps get the rest. */
const ACCEPTANCE_SHARE = 3_000;
const KEYS_SHARE = 1_500;
const KNOWLEDGE_SHARE = 1_500;

/** A prompt argument as prompts/list gives it, with the kind of value completion offers for it. */
export interface PromptArgumentSpec {
  name: string;
  description?: string;
  required: boolean;
  complete?: ValueKind;
}

export const MAX_DECLARED_ARGUMENTS = 10;
const ARGUMENT_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** Kinds of value an argument name implies when its declaration names none. */
const KIND_BY_NAME: Record<string, ValueKind> = {
  metric: 'metric',
  channel: 'channel',
  business_key: 'business_key',
  key: 'business_key',
  topic_id: 'topic',
  topic: 'topic',
  skill: 'skill',
  skill_name: 'skill',
  run_id: 'run',
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The inputs a Skill declares, from `arguments` in its SKILL.md metadata (or a top-level front
 * matter key of that name): a list of names, or of `{name, description, required, complete}`.
 * Read leniently, as metadata is free-form: an entry that does not fit (a bad name, project_id,
 * a duplicate, beyond the tenth) is skipped, and the console's Skill page shows what was understood.
 */
export function declaredArguments(metadata: unknown, frontmatterExtra: unknown): PromptArgumentSpec[] {
  const source = isRecord(metadata) && Array.isArray(metadata.arguments) ? metadata.arguments : undefined;
  const list =
    source ??
    (isRecord(frontmatterExtra) && Array.isArray(frontmatterExtra.arguments) ? frontmatterExtra.arguments : []);
  const out: PromptArgumentSpec[] = [];
  for (const entry of list as unknown[]) {
    const spec = isRecord(entry) ? entry : { name: entry };
    const name = spec.name;
    if (typeof name !== 'string' || !ARGUMENT_NAME.test(name) || name === 'project_id') continue;
    if (out.some((a) => a.name === name)) continue;
    const kind =
      typeof spec.complete === 'string' && (VALUE_KINDS as readonly string[]).includes(spec.complete)
        ? (spec.complete as ValueKind)
        : KIND_BY_NAME[name];
    out.push({
      name,
      ...(typeof spec.description === 'string' && spec.description.trim()
        ? { description: truncateCodePoints(spec.description.trim(), ITEM_MAX) }
        : {}),
      required: spec.required === true,
      ...(kind ? { complete: kind } : {}),
    });
    if (out.length === MAX_DECLARED_ARGUMENTS) break;
  }
  return out;
}

/** A prompt's title: the body's title, else the name in words ("investigate-roas-drop" → "Investigate roas drop"). */
export function promptTitle(name: string, bodyTitle: string | undefined): string {
  if (bodyTitle) return bodyTitle;
  const words = name.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface PromptMaterial {
  name: string;
  title: string;
  description: string;
  version: number;
  projectId: string;
  steps: SkillStep[];
  acceptance: string[];
  /** Inputs the caller gave (declared arguments), in declaration order. */
  inputs: [string, string][];
  /** The referenced keys with their labels (null: not in the taxonomy). */
  keys: { key: string; label: string | null }[];
  /** Knowledge linked to those keys; `more` counts sheets beyond the ones read. */
  knowledge: { topic_id: string; title: string; business_key: string; relation_type: string }[];
  moreKnowledge: number;
}

/** What a rendered prompt left out to stay within PROMPT_TEXT_MAX (all zero: nothing). */
export interface LeftOut {
  steps: number;
  step_instructions_cut: number;
  acceptance: number;
  business_keys: number;
  knowledge: number;
}

export interface RenderedPrompt {
  text: string;
  /** Characters (code points) of `text`. */
  chars: number;
  truncated: boolean;
  left_out: LeftOut;
}

const length = (text: string) => (text.length <= 1 ? text.length : Array.from(text).length);

/** Lines taken in order while they fit in `budget` characters (a newline each); the rest counted out. */
function fitting(lines: string[], budget: number): { kept: string[]; used: number; dropped: number } {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = length(line) + 1;
    if (used + cost > budget) break;
    kept.push(line);
    used += cost;
  }
  return { kept, used, dropped: lines.length - kept.length };
}

/** A section: its heading and as many of its lines as fit (nothing when none fits). */
function section(heading: string, lines: string[], budget: number) {
  if (lines.length === 0) return { text: [] as string[], used: 0, dropped: 0 };
  const head = length(heading) + 2;
  const fit = fitting(lines, budget - head);
  if (fit.kept.length === 0) return { text: [] as string[], used: 0, dropped: lines.length };
  return { text: ['', heading, ...fit.kept], used: head + fit.used, dropped: fit.dropped };
}

/**
 * The message that hands the model a Skill: what to do, the inputs given, the numbered steps, the
 * acceptance checklist, the business keys with their labels and the Knowledge to read (topic ids),
 * in at most PROMPT_TEXT_MAX characters. The smaller sections have shares of their own so the
 * steps cannot crowd them out; the steps get the rest. A step's instruction is cut at 1,500
 * characters, an item at 400; what did not fit is counted in `left_out` and named in a last line
 * that points to get_procedure for the whole Skill.
 */
export function renderPrompt(m: PromptMaterial): RenderedPrompt {
  const clip = (text: string, max: number) => truncateCodePoints(text.replace(/\s*\n\s*/g, ' ').trim(), max);
  const header = [
    `Follow the procedure "${clip(m.title, ITEM_MAX)}" (Skill ${m.name}, version ${m.version}, project ${m.projectId}), step by step.`,
    '',
    clip(m.description, 1_100),
  ];
  if (m.inputs.length > 0) {
    header.push('', 'Inputs:', ...m.inputs.map(([name, value]) => `- ${name}: ${clip(value, ITEM_MAX)}`));
  }
  const whole = `get_procedure {"name": "${m.name}", "project_id": "${m.projectId}"}`;
  const closing = 'When every step is done, check each acceptance item and report the result.';
  const reserve = 400; // the left-out line, when one is needed
  let budget = PROMPT_TEXT_MAX - length(header.join('\n')) - length(closing) - 2 - reserve;

  const acceptance = section(
    'Acceptance checklist:',
    m.acceptance.map((item) => `- [ ] ${clip(item, ITEM_MAX)}`),
    Math.min(ACCEPTANCE_SHARE, budget),
  );
  budget -= acceptance.used;
  const keys = section(
    'Business keys it references:',
    m.keys.map((k) => `- ${k.key}: ${k.label === null ? '(not in the taxonomy yet)' : clip(k.label, ITEM_MAX)}`),
    Math.min(KEYS_SHARE, budget),
  );
  budget -= keys.used;
  const knowledge = section(
    'Knowledge it relies on (open with get_knowledge and the topic_id):',
    m.knowledge.map((k) => `- ${k.topic_id}: ${clip(k.title, ITEM_MAX)} (${k.relation_type} ${k.business_key})`),
    Math.min(KNOWLEDGE_SHARE, budget),
  );
  budget -= knowledge.used;

  const flat = m.steps.map((s) => s.instruction.replace(/\s*\n\s*/g, ' ').trim());
  const steps = section(
    'Steps:',
    flat.map((text, i) => `${m.steps[i]!.index}. ${truncateCodePoints(text, STEP_MAX)}`),
    budget,
  );
  // A long instruction whose step was left out altogether is counted once, as a step left out.
  const cut = flat.slice(0, flat.length - steps.dropped).filter((text) => length(text) > STEP_MAX).length;
  const left: LeftOut = {
    steps: steps.dropped,
    step_instructions_cut: cut,
    acceptance: acceptance.dropped,
    business_keys: keys.dropped,
    knowledge: knowledge.dropped + m.moreKnowledge,
  };
  const truncated = Object.values(left).some((n) => n > 0);
  const lines = [...header, ...steps.text, ...acceptance.text, ...keys.text, ...knowledge.text, '', closing];
  if (truncated) lines.push(leftOutLine(left, m.steps.length, whole));
  const text = lines.join('\n');
  return { text, chars: length(text), truncated, left_out: left };
}

function leftOutLine(left: LeftOut, stepCount: number, whole: string): string {
  const parts: string[] = [];
  if (left.steps) parts.push(`steps ${stepCount - left.steps + 1}–${stepCount} of ${stepCount}`);
  if (left.step_instructions_cut) parts.push(`the end of ${left.step_instructions_cut} long step instruction(s)`);
  if (left.acceptance) parts.push(`${left.acceptance} acceptance item(s)`);
  if (left.business_keys) parts.push(`${left.business_keys} business key(s)`);
  if (left.knowledge) parts.push(`${left.knowledge} Knowledge pointer(s)`);
  return `Left out to stay within ${PROMPT_TEXT_MAX.toLocaleString('en-US')} characters: ${parts.join(', ')}. ${whole} gives the whole Skill.`;
}

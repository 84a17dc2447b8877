export {
  type CurrentSkillFile,
  SkillsService,
  type SkillsDeps,
  type SkillSnapshot,
  type SkillWrite,
} from './skills.service.js';
export { SkillPromptsService } from './skills.prompts.js';
export { skillRoutes } from './skills.routes.js';
export { skillTools } from './skills.tools.js';
export type { SkillChanges } from './skills.write.js';
export { PROMPT_TEXT_MAX } from './skills.prompt.js';
export { moveLegacyArguments, parseArgumentsSection, renderArgumentsSection } from './skills.arguments.js';
export { packStepLines } from './skills.presenter.js';
export { parseAcceptance, parseReferences, parseSteps, stepTitle } from './skills.parse.js';
export { canonicalFrontmatter, parseSkillFile, renderSkillFile, type SkillFile } from './skills.skillmd.js';
export {
  MAX_FRONT_MATTER_BYTES,
  MAX_SKILL_NAME_LENGTH,
  SKILL_NAME_PATTERN,
  SkillMetadata,
  SkillName,
  skillNameMessage,
} from './skills.schemas.js';

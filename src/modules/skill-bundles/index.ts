export { SKILL_PAGE_SIZE, SkillBundlesService } from './skill-bundles.service.js';
export { parseSkillUri, skillUri } from './skill-bundles.files.js';

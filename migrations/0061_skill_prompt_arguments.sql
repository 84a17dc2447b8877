-- A Skill's prompt arguments, read from its SKILL.md when a version is written: the body's
-- `## Arguments` section (older versions: the `arguments` list in metadata or the front matter).
-- prompts/list reads this column instead of every body.
ALTER TABLE skill_versions ADD COLUMN prompt_arguments jsonb NOT NULL DEFAULT '[]'::jsonb;

UPDATE skill_versions
SET prompt_arguments = COALESCE(
  CASE WHEN jsonb_typeof(metadata -> 'arguments') = 'array' THEN metadata -> 'arguments' END,
  CASE WHEN jsonb_typeof(frontmatter_extra -> 'arguments') = 'array' THEN frontmatter_extra -> 'arguments' END,
  '[]'::jsonb
);

"""Rules over the skill as a whole: unknown fields and files the body points at."""

from registry.rules.base import I, Rule, W

UNKNOWN_FIELD = Rule(
    "F001",
    W,
    "unknown field",
    "unknown frontmatter field(s) {fields}: not in the standard nor in any dialect the registry knows",
    "Check the spelling; registry data belongs under `metadata:` as string values.",
    "descripton: typo for description",
)
MISSING_REFERENCE = Rule(
    "F002",
    W,
    "linked file missing",
    "the body links to '{target}', which is not in the skill folder",
    "Add the file at {target} or fix the link; paths are relative to the skill folder.",
    "See [the reference](references/api.md) when references/api.md does not exist.",
)
DUPLICATE_NAME = Rule(
    "F003",
    W,
    "name used more than once",
    "the name '{name}' is also used by {others}",
    "Pick a distinct name unless these are deliberately the same skill; discovery indexes carry only one.",
    "Two publishers both shipping `skill-creator`.",
)

MENTIONED_PATH_MISSING = Rule(
    "F004",
    I,
    "mentioned file missing",
    "the body mentions '{target}' in code, which is not in the skill folder",
    "If the skill needs {target}, add it; if the text only describes an example, nothing to do.",
    "Run `python scripts/extract.py` when scripts/extract.py is not shipped.",
)

RULES = (UNKNOWN_FIELD, MISSING_REFERENCE, DUPLICATE_NAME, MENTIONED_PATH_MISSING)

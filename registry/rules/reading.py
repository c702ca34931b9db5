"""Rules for reading a SKILL.md: bytes, encoding, frontmatter delimiters and YAML."""

from registry.rules.base import E, I, Rule, W

INVALID_UTF8 = Rule(
    "P001",
    E,
    "invalid UTF-8",
    "SKILL.md is not valid UTF-8: byte 0x{byte} at offset {offset} cannot be decoded",
    "Save the file as UTF-8 (most editors: 'Save with encoding' > UTF-8).",
    "A file saved as Latin-1 with an accented character in the description.",
    blocks_loading=True,
)
BYTE_ORDER_MARK = Rule(
    "P002",
    W,
    "UTF-8 byte order mark",
    "SKILL.md starts with a UTF-8 byte order mark",
    "Remove the BOM: the `skills` CLI's frontmatter pattern requires the file to begin with '---'.",
    "A file saved by an editor set to 'UTF-8 with BOM'.",
)
CRLF_LINE_ENDINGS = Rule(
    "P003",
    I,
    "CRLF line endings",
    "SKILL.md uses CRLF line endings",
    "Optional: convert to LF (git config core.autocrlf input) so every client splits the frontmatter alike.",
    "A file committed from Windows without autocrlf.",
)
LONE_CR_LINE_ENDINGS = Rule(
    "P004",
    W,
    "lone CR line endings",
    "SKILL.md uses bare carriage returns as line breaks",
    "Convert line endings to LF; many YAML and Markdown readers treat CR as ordinary text.",
    "A file saved by classic Mac OS tools.",
)
NUL_BYTES = Rule(
    "P005",
    E,
    "NUL bytes",
    "SKILL.md contains NUL bytes (first at offset {offset}); it is not a text file",
    "Remove the NUL bytes; SKILL.md must be UTF-8 text.",
    "A UTF-16 encoded file.",
    blocks_loading=True,
)
NO_FRONTMATTER = Rule(
    "P010",
    E,
    "no frontmatter",
    "SKILL.md has no YAML frontmatter",
    "Start the file with a '---' line, then `name:` and `description:`, then a closing '---' line.",
    "A file that begins with '# Title'.",
    blocks_loading=True,
)
FRONTMATTER_NOT_CLOSED = Rule(
    "P011",
    E,
    "frontmatter not closed",
    "the frontmatter opened on line {line} is never closed by a '---' line",
    "Add a line holding only '---' (at column 1, not indented) after the last frontmatter field.",
    "A closing '---' indented inside a block scalar.",
    blocks_loading=True,
)
BLANK_LINES_BEFORE_FRONTMATTER = Rule(
    "P012",
    W,
    "text before frontmatter",
    "SKILL.md has {count} blank line(s) before the opening '---'",
    "Delete the blank lines so '---' is the first line; skills-ref and the `skills` CLI require it.",
    "An empty first line, then '---'.",
)
INVALID_YAML = Rule(
    "P013",
    E,
    "invalid YAML",
    "invalid YAML in frontmatter: {problem}",
    "{fix}",
    "description: Use this skill when: the user asks   (an unquoted ': ' inside a value)",
    blocks_loading=True,
)
YAML_LIMIT = Rule(
    "P014",
    E,
    "YAML exceeds a limit",
    "frontmatter {what} exceeds the limit of {limit} (found {actual}; limits.{setting})",
    "Simplify the frontmatter: no anchors/aliases that multiply content, no deep nesting.",
    "A 'billion laughs' alias bomb.",
    blocks_loading=True,
)
FRONTMATTER_NOT_MAPPING = Rule(
    "P015",
    E,
    "frontmatter is not a mapping",
    "SKILL.md frontmatter must be a YAML mapping (found {found})",
    "Write the frontmatter as `key: value` lines.",
    "A frontmatter holding a single list '- a'.",
    blocks_loading=True,
)
DUPLICATE_KEY = Rule(
    "P016",
    W,
    "duplicate key",
    "key '{key}' appears more than once in the frontmatter; the last value wins",
    "Keep one '{key}:' line.",
    "Two 'description:' lines.",
)
FRONTMATTER_TOO_LARGE = Rule(
    "P017",
    E,
    "frontmatter too large",
    "frontmatter is {actual} bytes, over the limit of {limit} (limits.frontmatter_bytes)",
    "Move long text into the body or into references/.",
    "A frontmatter with a 200 KB embedded JSON blob.",
    blocks_loading=True,
)
SKILL_MD_TOO_LARGE = Rule(
    "P018",
    E,
    "SKILL.md too large",
    "SKILL.md is {actual} bytes, over the limit of {limit} (limits.skill_md_bytes)",
    "Split the content into files under references/ and link them from the body.",
    "A 5 MB SKILL.md with an embedded data dump.",
    blocks_loading=True,
)
EMPTY_FILE = Rule(
    "P019",
    E,
    "empty SKILL.md",
    "SKILL.md is empty",
    "Add frontmatter with `name:` and `description:` and a body of instructions.",
    "A zero-byte SKILL.md.",
    blocks_loading=True,
)

RULES = (
    INVALID_UTF8,
    BYTE_ORDER_MARK,
    CRLF_LINE_ENDINGS,
    LONE_CR_LINE_ENDINGS,
    NUL_BYTES,
    NO_FRONTMATTER,
    FRONTMATTER_NOT_CLOSED,
    BLANK_LINES_BEFORE_FRONTMATTER,
    INVALID_YAML,
    YAML_LIMIT,
    FRONTMATTER_NOT_MAPPING,
    DUPLICATE_KEY,
    FRONTMATTER_TOO_LARGE,
    SKILL_MD_TOO_LARGE,
    EMPTY_FILE,
)

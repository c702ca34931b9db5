"""Rules for what the crawler finds on disk: links, sizes, names, special files."""

from registry.rules.base import E, I, Rule, W

SYMLINK_ESCAPES = Rule(
    "L001",
    W,
    "symlink leaves the skill",
    "symlink '{name}' points outside its skill folder; it was not followed and is not published",
    "Replace the link with a copy of the file inside the skill folder.",
    "references/shared.md -> ../../common/shared.md",
)
SYMLINK_BROKEN = Rule(
    "L002",
    W,
    "broken symlink",
    "symlink '{name}' is dangling or loops; it is not published",
    "Remove the link or point it at a file inside the skill folder.",
    "assets/logo.png -> logo-old.png (deleted)",
)
SYMLINK_DIRECTORY = Rule(
    "L003",
    W,
    "symlinked directory",
    "'{name}' is a symlink to a directory; directories behind links are not crawled",
    "Move the directory into place instead of linking it.",
    "skills/foo -> ../vendor/foo",
)
FILE_TOO_LARGE = Rule(
    "L004",
    W,
    "file too large",
    "'{name}' is {actual} bytes, over the per-file limit of {limit} (limits.file_bytes); it is not published",
    "Keep large data out of the skill, or raise limits.file_bytes in registry.yaml.",
    "assets/dataset.csv of 300 MB",
)
TOO_MANY_FILES = Rule(
    "L005",
    E,
    "too many files",
    "the skill holds {actual} files, over the limit of {limit} (limits.files_per_skill); it is left out",
    "Remove generated or vendored files from the skill folder; clients refuse archives with more than 1000 files.",
    "A skill with a checked-in node_modules renamed to deps/.",
    blocks_loading=True,
)
SKILL_TOO_LARGE = Rule(
    "L006",
    E,
    "skill too large",
    "the skill's files add up to {actual} bytes, over the limit of {limit} (limits.skill_bytes); it is left out",
    "Remove large files; clients refuse to unpack more than 50 MiB.",
    "Several large binaries under assets/.",
    blocks_loading=True,
)
UNSAFE_FILE_NAME = Rule(
    "L007",
    W,
    "unsafe file name",
    "file name {name} {reason}; it is not published",
    "Rename the file using printable characters, no backslashes and no '..' segments.",
    "A file named 'notes\\nrm -rf' or with Latin-1 bytes in its name.",
)
SKILL_MD_CASING = Rule(
    "L008",
    I,
    "SKILL.md spelled differently",
    "the skill file is named '{name}'; it is published as SKILL.md",
    "Rename it to SKILL.md: clients and archives look for that exact name.",
    "skill.md",
)
SPECIAL_FILE = Rule(
    "L009",
    W,
    "not a regular file",
    "'{name}' is a {kind}; only regular files are published",
    "Remove it from the skill folder.",
    "A named pipe (FIFO) left by a tool.",
)
UNREADABLE = Rule(
    "L010",
    E,
    "unreadable file",
    "'{name}' cannot be read: {reason}",
    "Fix the file's permissions or remove it.",
    "A file with mode 000.",
    blocks_loading=True,
)
SKILL_MD_NOT_FILE = Rule(
    "L011",
    E,
    "SKILL.md is not a file",
    "'{name}' is a {kind}, not a regular file; the skill cannot be read",
    "Make SKILL.md a regular file in the skill folder.",
    "A directory named SKILL.md.",
    blocks_loading=True,
)
HARD_LINK = Rule(
    "L012",
    W,
    "hard link",
    "'{name}' has {links} hard links; it may mirror a file outside the repository and is not published",
    "Replace the hard link with an ordinary copy.",
    "ln /etc/passwd assets/data.txt",
)
ID_RENAMED = Rule(
    "L013",
    W,
    "page address taken",
    "the folder '{folder}' maps to the address '{wanted}', which another skill already has; it is published as '{id}'",
    "Rename one of the folders so their addresses differ by more than case or punctuation.",
    "Two folders 'My-Skill' and 'my-skill'.",
)
TOO_DEEP = Rule(
    "L014",
    W,
    "directory too deep",
    "'{name}' is nested {actual} levels deep, over the limit of {limit} (limits.crawl_depth); it was not crawled",
    "Move skills closer to the repository root.",
    "a/b/c/d/e/f/g/h/i/j/k/l/m/SKILL.md",
)

RULES = (
    SYMLINK_ESCAPES,
    SYMLINK_BROKEN,
    SYMLINK_DIRECTORY,
    FILE_TOO_LARGE,
    TOO_MANY_FILES,
    SKILL_TOO_LARGE,
    UNSAFE_FILE_NAME,
    SKILL_MD_CASING,
    SPECIAL_FILE,
    UNREADABLE,
    SKILL_MD_NOT_FILE,
    HARD_LINK,
    ID_RENAMED,
    TOO_DEEP,
)

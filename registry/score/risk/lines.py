"""Where each piece of a skill's text sits, so a risk rule can weigh it: code, prose, frontmatter.

The same words mean different things in different places. `curl … | sh` in a fenced block or a
script is a command; in a sentence it may be an instruction or a warning; inside a wolffi.sh
`danger_patterns` list it is the description of what to block. This module turns each text file
into `Line`s that carry their context, and the rules decide which contexts they read:

- CODE: fenced code blocks, script files, and the continuation lines a shell would join;
- INLINE: `code spans` inside Markdown prose;
- PROSE: Markdown text (each table cell on its own, so cell borders are not read as pipes);
- CONFIG: SKILL.md frontmatter, except pattern and trigger lists, which are never read;
- DATA: JSON, YAML, HTML and other support files that are neither Markdown nor scripts;
- COMMENT: comment lines of scripts.

Nothing here runs or imports anything from a skill: it is string handling only.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from registry.text import Caseless

CODE, INLINE, PROSE, CONFIG, DATA, COMMENT = "code", "inline", "prose", "config", "data", "comment"
PROSE_BLOCK = -1  # the block number of Markdown prose: never the same place as a code block

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_LINES = 100_000  # lines read per file
MAX_SKILL_BYTES = 8 * 1024 * 1024  # text read per skill
BINARY_PROBE = 8 * 1024
MAX_JOINED = 20  # physical lines joined into one logical shell line at most
MAX_PARTS = 64  # table cells and inline code spans read per Markdown line

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".mdc", ".txt", ".rst", ".adoc"})
SCRIPT_SUFFIXES = frozenset(
    {
        ".sh", ".bash", ".zsh", ".fish", ".ksh", ".command",
        ".py", ".pyw", ".rb", ".pl", ".pm", ".php", ".lua", ".r", ".jl", ".tcl",
        ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx",
        ".ps1", ".psm1", ".psd1", ".bat", ".cmd", ".vbs", ".applescript",
        ".go", ".rs", ".java", ".kt", ".kts", ".swift", ".c", ".cc", ".cpp", ".h", ".hpp", ".cs", ".scala",
        ".groovy", ".gradle", ".dart", ".ex", ".exs", ".sql",
    }
)  # fmt: skip
SCRIPT_NAMES = frozenset({"makefile", "dockerfile", "justfile", "containerfile", "rakefile", "gemfile", "procfile"})
_SLASH_COMMENT = frozenset(
    {".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".go", ".rs", ".java", ".kt", ".kts", ".swift",
     ".c", ".cc", ".cpp", ".h", ".hpp", ".cs", ".scala", ".groovy", ".gradle", ".dart", ".php"}
)  # fmt: skip
_DASH_COMMENT = frozenset({".sql", ".lua"})
_REM_COMMENT = frozenset({".bat", ".cmd"})
NON_CODE_FENCES = frozenset({"mermaid", "dot", "graphviz", "plantuml", "math", "latex", "tex", "csv", "tsv"})

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^\s`{]*)")
_INLINE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_PATTERN_KEYS = re.compile(r"(?:^|_)(?:patterns?|triggers?|regex(?:es)?)$", re.IGNORECASE)

# Words that say the surrounding text warns against, detects or blocks a practice rather than
# asking for it. A rule never fires on a line that carries them (outside the matched text), nor
# when its `near` text does: the line before, a code block's introduction, the comment above a
# command, the other cells of a table row.
WARNING_WORDS = re.compile(
    r"\b(?:never|avoid(?:s|ed|ing)?|don'?t|do\s+not|does\s+not|must\s+not|mustn'?t|should\s+not|shouldn'?t|"
    r"instead\s+of|rather\s+than|dangerous|danger|malicious|malware|attack(?:s|er|ers)?|adversarial|"
    r"unsafe|insecure|anti-?patterns?|warnings?|risks?|bad\s+(?:practice|example|pattern|idea)|wrong|red\s+flags?|suspicious|"
    r"detect(?:s|ed|ion|ing|or)?|flagged|blocked|blocklist|denylist|den(?:y|ies|ied)|forbid(?:den|s)?|"
    r"not\s+allowed|prohibited|exploit(?:s|ed|ation)?|vulnerab\w*|phishing|scam\w*|prompt\s+injection|"
    r"injection\s+attack|threat|risky|stealer|exfiltrat\w*|backdoor\w*|compromised?|off[\s-]limits)\b"
    r"|\bbad\s*:|❌|🚫|⛔|☠|⚠",
    re.IGNORECASE,
)
_WARNING = Caseless(WARNING_WORDS.pattern)  # the same matches, found faster (registry.text.Caseless)


def has_warning(text: str) -> bool:
    """`WARNING_WORDS.search(text) is not None`, in a fraction of the time."""
    return _WARNING.search(text) is not None


@dataclass(slots=True, unsafe_hash=True)
class Line:
    """One logical line of text, where it sits, and how to map offsets back to the file.

    Never changed once made (treat it as frozen); not declared frozen because a skill has
    thousands of lines and a frozen data class is about five times slower to create.
    """

    path: str  # as shown in findings: relative to the source root
    text: str
    context: str
    spans: tuple[tuple[int, int, int], ...]  # (offset in text, 1-based line, 1-based column), ascending
    near: str = ""  # the text around it (the line before, a code block's introduction) that may warn
    kind: str = ""  # fence language or file suffix
    block: int = 0  # lines of one code block or one file share a block number
    physical: int = 1  # physical lines joined into this one

    def locate(self, offset: int) -> tuple[int, int]:
        index = max(0, bisect.bisect_right([s[0] for s in self.spans], offset) - 1)
        start, line, column = self.spans[index]
        return line, column + max(0, offset - start)

    def window(self, start: int, end: int) -> Line:
        """A slice of a long line that still maps its offsets back to the file."""
        line, column = self.locate(start)
        spans = [(0, line, column)] + [(s - start, n, c) for s, n, c in self.spans if start < s < end]
        return replace(self, text=self.text[start:end], spans=tuple(spans))

    def warns(self, start: int, end: int) -> bool:
        """The neighbours warn, or this line does outside the matched text."""
        if _warnings(self.near):
            return True
        return any(s < start or e > end for s, e in _warnings(self.text))


@dataclass(frozen=True)
class TextFile:
    path: str  # shown path
    name: str  # path inside the skill
    lines: tuple[Line, ...]
    kind: str  # markdown, script, data, skill_md
    # Every analyser's needles found in `lowered`, by analyser, filled on first use (registry/score/risk/needles.py)
    searched: dict = field(default_factory=dict, compare=False, repr=False)

    @functools.cached_property
    def lowered(self) -> tuple[str, tuple[int, ...], bool]:
        """(the lines lower-cased and joined by newlines, where each line starts, exact).

        Offsets are the lines' own: a line whose lowering changes its length (a few letters lower
        to two characters) is cut or padded back to it, and `exact` is False; the line scan and the
        instruction analysis share this one copy.
        """
        texts = [line.text for line in self.lines]
        joined = "\n".join(texts)
        low = joined.lower()
        exact = len(low) == len(joined)  # lowering never shortens: same length, same offsets
        if not exact:
            low = "\n".join(text.lower()[: len(text)].ljust(len(text)) for text in texts)
        return low, tuple(itertools.accumulate((len(text) + 1 for text in texts), initial=0)), exact


@functools.lru_cache(maxsize=256)
def _warnings(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(m.span() for m in _WARNING.finditer(text))


def is_binary(data: bytes) -> bool:
    return b"\x00" in data[:BINARY_PROBE]


def decode(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace")
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def file_kind(name: str, text: str) -> str:
    pure = PurePosixPath(name)
    suffix = pure.suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in SCRIPT_SUFFIXES or pure.name.lower() in SCRIPT_NAMES or text.startswith("#!"):
        return "script"
    if not suffix:
        return "markdown"  # README, LICENSE, NOTICE: prose
    return "data"


@dataclass(frozen=True)
class Unread:
    path: str  # shown path
    reason: str


def read_files(
    contents: Mapping[str, bytes],
    shown: str,
    body_line: int,
    frontmatter_sections: list[tuple[int, str]],
) -> tuple[list[TextFile], list[Unread]]:
    """The scannable text files, and the text files left unread (too large, over the skill's budget).

    SKILL.md is read first, then the other files from the smallest up, so padding a skill with
    large files cannot push a small payload out of the budget. Binaries are skipped silently.
    """
    files: list[TextFile] = []
    unread: list[Unread] = []
    block = 0
    budget = MAX_SKILL_BYTES
    order = sorted(contents, key=lambda n: (n != "SKILL.md", _size(contents[n]), n))
    for name in order:
        data = contents[name]
        path = name if shown in (".", "") else f"{shown}/{name}"
        if not isinstance(data, bytes | bytearray) or is_binary(bytes(data)):
            continue
        if len(data) > MAX_FILE_BYTES:
            unread.append(Unread(path, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB"))
            continue
        if len(data) > budget:
            unread.append(Unread(path, f"past the {MAX_SKILL_BYTES // (1024 * 1024)} MB read per skill"))
            continue
        budget -= len(data)
        text = decode(bytes(data))
        physical = text.split("\n", MAX_LINES)
        if len(physical) > MAX_LINES:
            unread.append(Unread(path, f"only the first {MAX_LINES:,} lines were read"))
            physical = physical[:MAX_LINES]
        if name == "SKILL.md":
            split = max(1, min(body_line, len(physical) + 1))
            lines = _frontmatter_lines(physical[: split - 1], path, frontmatter_sections)
            block += 1
            body, block = _markdown_lines(physical[split - 1 :], split, path, block)
            files.append(TextFile(path, name, tuple(lines + body), "skill_md"))
            continue
        kind = file_kind(name, text)
        block += 1
        if kind == "markdown":
            body, block = _markdown_lines(physical, 1, path, block)
            files.append(TextFile(path, name, tuple(body), kind))
        elif kind == "script":
            files.append(TextFile(path, name, tuple(_script_lines(physical, path, name, block)), kind))
        else:
            files.append(TextFile(path, name, tuple(_plain_lines(physical, path, DATA, block, name)), kind))
    return files, unread


def _size(data: object) -> int:
    return len(data) if isinstance(data, bytes | bytearray) else 0


def _frontmatter_lines(physical: list[str], path: str, sections: list[tuple[int, str]]) -> list[Line]:
    """Frontmatter lines as CONFIG, leaving out pattern and trigger lists: they describe, never run."""
    skipped: set[int] = set()
    ordered = sorted(sections)
    for index, (start, key) in enumerate(ordered):
        if _PATTERN_KEYS.search(key):
            end = ordered[index + 1][0] if index + 1 < len(ordered) else len(physical) + 1
            skipped.update(range(start, end))
    lines: list[Line] = []
    previous = ""
    for number, text in enumerate(physical, start=1):
        if number in skipped or text.strip() in ("---", ""):
            continue
        lines.append(Line(path, text, CONFIG, ((0, number, 1),), previous, "yaml"))
        previous = text
    return lines


def _markdown_lines(physical: list[str], first: int, path: str, block: int) -> tuple[list[Line], int]:
    lines: list[Line] = []
    fence: str | None = None
    language = ""
    intro = ""
    # The last two non-empty lines before the current one, outside fences ("" when there is none).
    earlier = last = ""
    header = ""
    code: list[tuple[int, str]] = []
    number = first - 1
    for text in physical:
        number += 1
        head = text[:6]  # registry.parse.body.may_open_fence, inlined: this loop runs for every line
        match = _FENCE.match(text) if "```" in head or "~~~" in head else None
        if fence is None and match:
            fence = match.group(1)[0] * len(match.group(1))
            language = match.group(2).lower()
            intro = f"{earlier}\n{last}" if earlier else last
            block += 1
            code = []
            continue
        if fence is not None:
            if match and match.group(1).startswith(fence) and not match.group(2):
                if language not in NON_CODE_FENCES:
                    lines += _code_lines(code, path, language or "text", block, intro)
                fence = None
                earlier = last = ""
                continue
            code.append((number, text))
            continue
        stripped = text.lstrip()
        if not stripped:
            continue
        if "`" not in text and stripped[0] != "|":  # most prose: one cell, no code span
            lines.append(Line(path, text, PROSE, ((0, number, 1),), last, "markdown", PROSE_BLOCK))
        else:
            is_row = stripped[0] == "|"
            if is_row and not last.lstrip().startswith("|"):
                header = text  # a table's first row names its columns ("Risk", "Blocked" ...)
            lines += _prose_line(text, number, path, f"{header}\n{last}" if is_row else last, PROSE_BLOCK)
        earlier, last = last, text
    if fence is not None and language not in NON_CODE_FENCES:  # an unclosed fence runs to the end
        lines += _code_lines(code, path, language or "text", block, intro)
    return lines, block


def _prose_line(text: str, number: int, path: str, near: str, block: int) -> list[Line]:
    """A table row's cells and a line's code spans, each on its own (plain prose lines are made inline)."""
    stripped = text.lstrip()
    out: list[Line] = []
    cells: list[tuple[int, str]] = []
    if stripped.startswith("|"):
        # A table row: each cell on its own, escaped pipes kept as text (same length).
        clean = text.replace("\\|", " ¦")
        start = 0
        for piece in clean.split("|", MAX_PARTS):
            if piece.strip():
                cells.append((start, piece.replace(" ¦", " |")))
            start += len(piece) + 1
    else:
        cells.append((0, text))
    for offset, cell in cells:
        cell_near = near
        if len(cells) > 1:  # a table row: the other cells say what this one shows ("risk", "blocked" ...)
            cell_near = f"{near}\n{text[:offset]} {text[offset + len(cell) :]}"
        out.append(Line(path, cell, PROSE, ((0, number, offset + 1),), cell_near, "markdown", block))
        if "`" not in cell:
            continue
        for span in itertools.islice(_INLINE.finditer(cell), MAX_PARTS):
            column = offset + span.start(2) + 1
            around = (
                f"{cell_near}\n{cell[max(0, span.start() - 200) : span.start()]} {cell[span.end() : span.end() + 200]}"
            )
            out.append(Line(path, span.group(2), INLINE, ((0, number, column),), around, "markdown", block))
    return out


def _comment_prefix(suffix: str) -> tuple[str, ...]:
    if suffix in _SLASH_COMMENT:
        return ("//", "/*", "*")
    if suffix in _DASH_COMMENT:
        return ("--",)
    if suffix in _REM_COMMENT:
        return ("rem ", "::", "@rem ")
    return ("#",)


def _script_lines(physical: list[str], path: str, name: str, block: int) -> list[Line]:
    suffix = PurePosixPath(name).suffix.lower()
    prefixes = _comment_prefix(suffix)
    numbered = list(enumerate(physical, start=1))
    return _code_lines(numbered, path, suffix.lstrip(".") or "script", block, "", prefixes)


def _plain_lines(physical: list[str], path: str, context: str, block: int, name: str) -> list[Line]:
    suffix = PurePosixPath(name).suffix.lower().lstrip(".")
    lines: list[Line] = []
    previous = ""
    for number, text in enumerate(physical, start=1):
        if not text.strip():
            continue
        lines.append(Line(path, text, context, ((0, number, 1),), previous, suffix, block))
        previous = text
    return lines


_CONTINUATIONS = ("\\", "|", "&&")  # a line ending so (before trailing blanks) goes on: `\`, `|`, `||`, `&&`


def _code_lines(
    numbered: list[tuple[int, str]],
    path: str,
    language: str,
    block: int,
    intro: str,
    comments: tuple[str, ...] = ("#", "//"),
) -> list[Line]:
    """Code as logical lines: a shell joins `\\`, `|`, `&&` and `||` continuations into one command."""
    lines: list[Line] = []
    previous_comment = ""
    index = 0
    while index < len(numbered):
        number, text = numbered[index]
        stripped = text.lstrip()
        if not stripped:
            index += 1
            continue
        # A comment: every prefix is at most 5 characters, and lowering the head gives the lowered line's head.
        head = stripped[:5].lower()
        if head.startswith("#!") or head.startswith(comments):
            lines.append(Line(path, text, COMMENT, ((0, number, 1),), f"{intro}\n{previous_comment}", language, block))
            previous_comment = text
            index += 1
            continue
        near = f"{intro}\n{previous_comment}" if previous_comment else intro
        if not text.rstrip().endswith(_CONTINUATIONS):  # most lines: one physical line, one command
            lines.append(Line(path, text, CODE, ((0, number, 1),), near, language, block, 1))
            previous_comment = ""
            index += 1
            continue
        spans = [(0, number, 1)]
        joined = text
        count = 1
        while joined.rstrip().endswith(_CONTINUATIONS) and index + count < len(numbered) and count < MAX_JOINED:
            if joined.rstrip().endswith("\\"):
                joined = joined.rstrip()[:-1]
            joined += " "
            following_number, following = numbered[index + count]
            spans.append((len(joined), following_number, 1))
            joined += following
            count += 1
        lines.append(Line(path, joined, CODE, tuple(spans), near, language, block, count))
        previous_comment = ""
        index += count
    return lines

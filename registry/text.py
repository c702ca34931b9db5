"""Text helpers shared by every layer: skill names, URL slugs, hidden characters, tool lists.

They depend on nothing else in the package, so a dialect, the crawler, a risk analyser and an
emitter can all use them without importing one another.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator

# Skill names (the Agent Skills standard's form, and the words it reserves).
ASCII_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
RESERVED_WORDS = ("anthropic", "claude")


def suggest_name(raw: str) -> str:
    text = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"[^a-z0-9]+", "-", text)
    return re.sub(r"-{2,}", "-", text).strip("-")[:64].strip("-") or "my-skill"


# Characters used to hide text from a reviewer: zero-width, bidirectional controls, tags.
INVISIBLE = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)


def hidden_characters(text: str) -> list[int]:
    """Offsets of invisible characters that are not part of an emoji sequence."""
    if text.isascii():  # every invisible character is outside ASCII (a constant-time test)
        return []
    return [m.start() for m in INVISIBLE.finditer(text) if not in_emoji_sequence(text, m.start())]


def in_emoji_sequence(text: str, index: int) -> bool:
    """ZWJ between emoji (👩‍💻) and tag characters in flag sequences (🏴 + tags) are legitimate."""
    char = text[index]
    previous = text[index - 1] if index else ""
    if char == "\u200d":
        following = text[index + 1] if index + 1 < len(text) else ""
        return (
            bool(previous)
            and (ord(previous) >= 0x1F000 or previous == "\ufe0f" or 0x2600 <= ord(previous) < 0x2800)
            and (bool(following) and (ord(following) >= 0x1F000 or 0x2600 <= ord(following) < 0x2800))
        )
    if 0xE0000 <= ord(char) <= 0xE007F:
        start = index
        while start > 0 and 0xE0000 <= ord(text[start - 1]) <= 0xE007F:
            start -= 1
        return start > 0 and text[start - 1] == "\U0001f3f4"
    return False


class Caseless:
    """A case-insensitive regular expression, matched faster with the same spans.

    re's shortcuts (a literal prefix, a first-character set, a quick skip of alternatives) work only
    without IGNORECASE. Matching the pattern with its ASCII letters lower-cased against the lower-cased
    text finds the same spans when lowering keeps the text's length (no 'İ', which lowers to two
    characters) and the text holds neither 'ı' nor 'ſ', the two characters IGNORECASE folds to an ASCII
    letter that lowering keeps (tested over every code point: nothing else differs, and lowering changes
    no character's class, \\w, \\d or \\s). Other text gets the IGNORECASE pattern. On the fast path a
    match's groups are lower-cased: read the text's own by the match's span.
    """

    __slots__ = ("folded", "lowered")

    def __init__(self, source: str) -> None:
        if any(not char.isascii() and (char.lower() != char or char.upper() != char) for char in source):
            raise ValueError("a cased letter outside ASCII is not lowered")
        self.folded = re.compile(source, re.IGNORECASE)
        self.lowered = re.compile(_lower_letters(source))

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        """`lower`, when given, is `text.lower()`."""
        low = _lowered(text, lower)
        return self.folded.search(text) if low is None else self.lowered.search(low)

    def finditer(self, text: str, lower: str | None = None) -> Iterator[re.Match[str]]:
        low = _lowered(text, lower)
        return self.folded.finditer(text) if low is None else self.lowered.finditer(low)


def _lowered(text: str, lower: str | None) -> str | None:
    """The lower-cased text, when Caseless may match it instead of the text; None when it may not."""
    low = text.lower() if lower is None else lower
    if text.isascii() or (len(low) == len(text) and "\u0131" not in text and "\u017f" not in text):
        return low
    return None


def _lower_letters(source: str) -> str:
    """A pattern's ASCII letters lower-cased, except in escapes (`\\S`, `\\B`) and group names."""
    if "\\N" in source or "(?L" in source:
        raise ValueError("named characters and locale flags are not lowered")  # hex escapes lower harmlessly
    out: list[str] = []
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\":
            out.append(source[index : index + 2])
            index += 2
            continue
        if source.startswith(("(?P<", "(?P="), index):
            end = source.index(">" if source[index + 3] == "<" else ")", index)
            out.append(source[index : end + 1])
            index = end + 1
            continue
        out.append(char.lower() if "A" <= char <= "Z" else char)
        index += 1
    return "".join(out)


def split_tools(text: str) -> list[str]:
    """Split `Bash(git add *) Read, Grep` on spaces and commas outside parentheses."""
    tools: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if depth == 0 and (ch.isspace() or ch == ","):
            if current:
                tools.append(current)
            current = ""
        else:
            current += ch
    if current:
        tools.append(current)
    return tools


_SLUG_DROP = re.compile(r"[^a-z0-9_.-]+")


_ALREADY_SLUG = re.compile(r"[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?")


def slug(segment: str) -> str:
    """An ASCII, URL-safe form of one path segment; stable for a given input."""
    if "--" not in segment and _ALREADY_SLUG.fullmatch(segment):
        return segment  # most folder names: _made_slug gives them back unchanged (a test holds it)
    return _made_slug(segment)


def _made_slug(segment: str) -> str:
    raw = segment.encode("utf-8", "surrogateescape")
    text = unicodedata.normalize("NFKD", raw.decode("utf-8", "replace")).encode("ascii", "ignore").decode().lower()
    text = _SLUG_DROP.sub("-", text)
    text = re.sub(r"-{2,}", "-", text).strip(".-")
    return text or "x-" + hashlib.sha256(raw).hexdigest()[:10]

"""Reading a Markdown body line by line, knowing which lines are inside fenced code blocks."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def may_open_fence(text: str) -> bool:
    """False for a line no fence pattern can match: its run of 3 markers starts within the first 4 characters.

    A plain substring test on the head is far cheaper than the pattern, and most lines are neither.
    """
    head = text[:6]
    return "```" in head or "~~~" in head


@dataclass(slots=True)
class BodyLine:  # never changed once made; not frozen: a frozen data class is five times slower to create
    number: int  # 0-based within the body
    text: str
    in_code: bool  # inside a fenced code block
    is_fence: bool  # an opening or closing fence line itself


def body_lines(body: str) -> tuple[BodyLine, ...]:
    """Every line, with fences tracked as CommonMark does (a longer or equal run closes a fence).

    Kept for the last few bodies: the parser (referenced paths) and the categories read the same body
    in one analysis, and the lines never change once made.
    """
    return _body_lines(body)


@functools.lru_cache(maxsize=4)
def _body_lines(body: str) -> tuple[BodyLine, ...]:
    return tuple(_read(body))


def _read(body: str) -> Iterator[BodyLine]:
    fence: str | None = None
    for number, text in enumerate(body.split("\n")):
        match = _FENCE.match(text) if may_open_fence(text) else None
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
                yield BodyLine(number, text, False, True)
                continue
            if marker.startswith(fence):
                fence = None
                yield BodyLine(number, text, True, True)
                continue
        yield BodyLine(number, text, fence is not None, False)

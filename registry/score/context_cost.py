"""Context cost: the tokens a skill puts into an agent's context, at each step of progressive disclosure.

The Agent Skills spec loads a skill in three steps: its name and description in every session, the
SKILL.md body when the skill is used, and the files the body points to when they are read. Each is
counted here, and a SKILL.md past the spec's guidance (500 lines, about 5,000 tokens of body) gets X001.

The counts are estimates, never a tokenizer's: no tokenizer of today's Claude models ships in a
package, and the one that does (the legacy Claude tokenizer inside `anthropic` SDK releases before
0.39) would tie the build to an obsolete SDK. The estimate counts words, symbols, digits, non-ASCII
characters and line breaks, with weights fitted on the corpus against that legacy tokenizer
(bench/context_calibration.py prints the fit and the error; README "Trust, risk, versions").
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass

from registry.model import Document, Finding, Outline, Skill
from registry.rules.base import Rule, W

# The spec's guidance (agentskills.io/specification, "Progressive disclosure").
GUIDANCE_LINES = 500
GUIDANCE_BODY_TOKENS = 5000

# Weights per unit of text, fitted by bench/context_calibration.py on the corpus's SKILL.md bodies.
WORD_WEIGHT = 1.17  # a run of ASCII letters
SYMBOL_WEIGHT = 0.63  # an ASCII punctuation or symbol character
DIGIT_WEIGHT = 1.16
NON_ASCII_WEIGHT = 0.95  # per character: accents, CJK, emoji, box drawing
NEWLINE_WEIGHT = 0.98

# Each ASCII byte as its class: a letter "a", a digit "0", a symbol "!", anything else " ". Counting
# classes in the translated bytes is C work; three regex scans built a list of every match.
_CLASS_OF_BYTE = (
    bytes(
        ord("a") if chr(byte).isalpha() else ord("0") if chr(byte).isdigit() else ord("!") if 33 <= byte < 127 else 32
        for byte in range(128)
    )
    + b" " * 128
)
# Each class byte as letter or not: a word starts at each "a" after a space (one two-byte count, not three).
_LETTER_OR_NOT = bytes(ord("a") if byte == ord("a") else 32 for byte in range(256))
# A relative link target in Markdown, or a path written as inline code: how a body points at a file.
_LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>#?]+)")
_CODE_SPAN = re.compile(r"`([^`\s]+)`")

REFERENCE_FOLDER = "references/"

PAST_GUIDANCE = Rule(
    "X001",
    W,
    "SKILL.md past the spec's size guidance",
    "SKILL.md is {what}, past the Agent Skills guidance of {limit}; the whole body enters the context "
    "each time the skill is used (about {tokens} tokens, estimated)",
    "Keep the steps in SKILL.md and move details, long examples and tables into files under references/, "
    "linked from the body: they are read only when needed.",
    "A 2,000-line SKILL.md that pastes a whole API reference into the body.",
)

RULES = (PAST_GUIDANCE,)


def estimate_tokens(text: str) -> int:
    """Estimated tokens of `text` (see the module's docstring for how the weights were found)."""
    if not text:
        return 0
    # Every non-ASCII character becomes one "?", which ends a word as the character did; counted apart.
    replaced = text.encode("ascii", "replace")
    non_ascii = replaced.count(b"?") - text.count("?")
    classes = replaced.translate(_CLASS_OF_BYTE)
    letters = classes.translate(_LETTER_OR_NOT)
    words = letters.count(b" a") + letters.startswith(b"a")
    estimate = (
        WORD_WEIGHT * words
        + SYMBOL_WEIGHT * (classes.count(b"!") - non_ascii)
        + DIGIT_WEIGHT * classes.count(b"0")
        + NON_ASCII_WEIGHT * non_ascii
        + NEWLINE_WEIGHT * text.count("\n")
    )
    return max(1, round(estimate))


@dataclass(frozen=True)
class ContextCost:
    """A skill's estimated tokens at each step of loading, and the files counted as its references."""

    description_tokens: int  # name and description: paid in every session where the skill is installed
    body_tokens: int  # the SKILL.md body: paid when the skill is used
    reference_tokens: int  # the reference files together: paid when each is read
    reference_bytes: int
    reference_files: tuple[str, ...]  # paths in the skill folder, sorted
    skill_md_lines: int

    @property
    def past_guidance(self) -> bool:
        return self.skill_md_lines > GUIDANCE_LINES or self.body_tokens > GUIDANCE_BODY_TOKENS

    def to_json(self) -> dict:
        return {
            "estimated": True,
            "description_tokens": self.description_tokens,
            "body_tokens": self.body_tokens,
            "reference_tokens": self.reference_tokens,
            "reference_bytes": self.reference_bytes,
            "reference_files": list(self.reference_files),
            "skill_md_lines": self.skill_md_lines,
            "past_guidance": self.past_guidance,
        }


def description_text(skill: Skill) -> str:
    """What a client puts in its list of available skills: the name and the description."""
    return f"name: {skill.name or ''}\ndescription: {skill.description or ''}"


def measure(skill: Skill, contents: Mapping[str, bytes]) -> tuple[ContextCost, tuple[Finding, ...]]:
    """The skill's context cost and, past the spec's guidance, the X001 finding on its SKILL.md."""
    document = skill.document
    body = document.body if isinstance(document, Document) else ""
    text = document.text if isinstance(document, Document) else ""
    references = reference_files(body, skill.location.skill_md, contents)
    reference_texts = [_text(contents[path]) for path in references]
    cost = ContextCost(
        description_tokens=estimate_tokens(description_text(skill)),
        body_tokens=estimate_tokens(body),
        reference_tokens=sum(estimate_tokens(t) for t in reference_texts if t is not None),
        reference_bytes=sum(len(contents[path]) for path in references),
        reference_files=references,
        skill_md_lines=len(text.splitlines()),
    )
    if not cost.past_guidance or isinstance(document, Outline):
        return cost, ()
    return cost, (_past_guidance(skill, document, cost),)


def reference_files(body: str, skill_md: str, contents: Mapping[str, bytes]) -> tuple[str, ...]:
    """Text files under references/, and any other text file of the skill the body links to or names in code."""
    named = {_normalise(target) for target in _LINK_TARGET.findall(body)}
    named |= {_normalise(span) for span in _CODE_SPAN.findall(body)}
    found = [
        path
        for path, data in contents.items()
        if path != skill_md and (path.startswith(REFERENCE_FOLDER) or path in named) and _text(data) is not None
    ]
    return tuple(sorted(found))


def _normalise(target: str) -> str:
    return posixpath.normpath(target.strip()).removeprefix("./")


def _text(data: bytes) -> str | None:
    """The file as text, or None for a binary file (one an agent would not read into its context)."""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _past_guidance(skill: Skill, document: Document, cost: ContextCost) -> Finding:
    path = skill.location.skill_md_path
    if cost.skill_md_lines > GUIDANCE_LINES:
        what = f"{cost.skill_md_lines} lines long"
        return PAST_GUIDANCE.at(
            path, GUIDANCE_LINES + 1, 1, what=what, limit=f"{GUIDANCE_LINES} lines", tokens=cost.body_tokens
        )
    line = document.body_line + _line_past(document.body, GUIDANCE_BODY_TOKENS)
    what = f"about {cost.body_tokens} tokens of body (estimated)"
    return PAST_GUIDANCE.at(
        path, line, 1, what=what, limit=f"about {GUIDANCE_BODY_TOKENS} tokens", tokens=cost.body_tokens
    )


def _line_past(body: str, tokens: int) -> int:
    """The 0-based body line where the running estimate first passes `tokens`."""
    total = 0
    lines = body.split("\n")
    for number, line in enumerate(lines):
        total += estimate_tokens(line + "\n")
        if total > tokens:
            return number
    return len(lines) - 1

"""What search knows of a skill: the record a result shows, and every word it says with its weight."""

from __future__ import annotations

import hashlib
import re
from array import array
from dataclasses import dataclass
from functools import cached_property

import orjson

from registry.model import Skill
from registry.search.engine import order_key
from registry.search.terms import MAX_BODY_CHARS, normalized, word_weights

_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)
MAX_HEADINGS = 60
MAX_TRIGGERS = 200
SHOWN_DESCRIPTION = 200  # characters of a description the site's search results show


@dataclass(frozen=True)
class SearchDocument:
    id: str
    name: str
    description: str
    tags: tuple[str, ...]
    category: str
    publisher: str
    version: str
    tier: str
    risk: str
    dialects: tuple[str, ...]
    last_updated: str
    # Every word the skill says, sorted, separated by spaces, and its weight (terms.word_weights) in `weights`,
    # uint32 in native order: two objects a skill instead of a tuple a word, for a registry's worth in memory.
    words: str
    weights: bytes

    @classmethod
    def pack(cls, weighted: dict[str, int]) -> tuple[str, bytes]:
        ordered = sorted(weighted)
        return " ".join(ordered), array("I", [weighted[word] for word in ordered]).tobytes()

    def word_weights(self) -> list[tuple[str, int]]:
        return list(zip(self.word_list(), array("I", self.weights), strict=True))

    def word_list(self) -> list[str]:
        return self.words.split(" ") if self.words else []

    @cached_property
    def key(self) -> str:
        """Changes exactly when anything indexed changes: unchanged documents are not re-indexed."""
        fields = [getattr(self, name) for name in self.__dataclass_fields__ if name != "weights"]
        return hashlib.sha256(orjson.dumps(fields) + self.weights).hexdigest()

    @cached_property
    def normalized_name(self) -> str:
        return normalized(self.name)

    @property
    def order(self) -> int:
        return order_key(self.tier, self.risk, self.last_updated)

    @property
    def shortened(self) -> bool:
        """Whether `record` cuts the description (the full one is kept in the build cache for the CLI)."""
        return len(self.description) > SHOWN_DESCRIPTION

    def record(self) -> list:
        """What a result shows and ranking's tie-breaks need: README "Search", `search/docs/<n>.json`."""
        description = self.description[: SHOWN_DESCRIPTION - 1] + "…" if self.shortened else self.description
        return [
            self.id, self.name, description, self.tier, self.risk, self.last_updated, self.category,
            list(self.dialects), self.version,
        ]  # fmt: skip


def meta_text(skill: Skill) -> str:
    """Headings, tool, input and argument names, triggers: the body's words that say what it is about."""
    headings = [h.strip() for h in _HEADING.findall(skill.document.body)][:MAX_HEADINGS]
    names = [t.name for t in skill.tools] + [i.name for i in skill.inputs] + [i.label for i in skill.inputs]
    names += [a.name for a in skill.arguments]
    triggers = [t for t in skill.triggers if t != "*"][:MAX_TRIGGERS]
    return " \n".join(headings + names + triggers)


def make_document(skill: Skill, tier: str, last_updated: str | None) -> SearchDocument:
    words, weights = SearchDocument.pack(
        word_weights(
            {
                "name": skill.display_name,
                "tags": " ".join(skill.tags) + " " + (skill.category or ""),
                "description": skill.description or "",
                "meta": meta_text(skill),
                "body": skill.document.body[:MAX_BODY_CHARS],
            }
        )
    )
    return SearchDocument(
        id=skill.id,
        name=skill.display_name,
        description=skill.description or "",
        tags=tuple(skill.tags),
        category=skill.category or "",
        publisher=skill.publisher,
        version=skill.version or "",
        tier=tier,
        risk=skill.risk_level,
        dialects=tuple(skill.dialects),
        last_updated=last_updated or "",
        words=words,
        weights=weights,
    )

"""What search knows of a skill: the fields ranking needs, not whole bodies."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass

from registry.model import Skill
from registry.search.text import words

_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)
MAX_HEADINGS = 60


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
    body: str  # headings, tool/input/argument names, triggers: what ranking needs of the body

    @property
    def key(self) -> str:
        """Changes exactly when anything indexed changes: unchanged documents are not re-indexed."""
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()

    def to_json(self) -> dict:
        return asdict(self)


def body_terms(skill: Skill) -> str:
    headings = [h.strip() for h in _HEADING.findall(skill.document.body)][:MAX_HEADINGS]
    names = [t.name for t in skill.tools] + [i.name for i in skill.inputs] + [i.label for i in skill.inputs]
    names += [a.name for a in skill.arguments]
    triggers = [t for t in skill.triggers if t != "*"][:200]
    return " \n".join(headings + names + triggers)


def make_document(skill: Skill, tier: str, last_updated: str | None) -> SearchDocument:
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
        body=body_terms(skill),
    )


def name_words(name: str) -> tuple[str, ...]:
    return tuple(words(name))

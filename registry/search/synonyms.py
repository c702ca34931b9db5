"""The synonym table (synonyms.yaml beside this file): words people use for the same thing.

The CLI reads it here; a build writes the same groups into the site's `search/manifest.json`, where
static/search-rank.js reads them, so both expand a query word alike (engine.expand). Groups are
matched by stem key: a query word finds the groups holding any word with its stem.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from registry.search.terms import stem_key

TABLE = Path(__file__).with_name("synonyms.yaml")
SOURCES = ("learned", "general")


@functools.cache
def synonym_groups() -> tuple[tuple[str, ...], ...]:
    """Every group's words, in the file's order."""
    import yaml  # here, not at the top: `skill-registry search` reads the table from the index, never this file

    data = yaml.safe_load(TABLE.read_text(encoding="utf-8"))
    return tuple(tuple(group["words"]) for group in data["groups"])


def synonyms_of(word: str, groups: Sequence[Sequence[str]]) -> list[str]:
    """The other words of every group holding `word`'s stem, in the table's order, each once (static/search-rank.js
    synonymsOf does the same)."""
    key = stem_key(word)
    found: list[str] = []
    for group in groups:
        if any(stem_key(member) == key for member in group):
            found += [m for m in group if stem_key(m) != key and m not in found]
    return found

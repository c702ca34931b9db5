"""Showing search results: highlighted in a terminal, or as stable JSON for agents."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from rich.text import Text

from registry.report import console as make_console
from registry.search.query import CANDIDATES, Filters, search
from registry.search.rank import FIELD_LEVELS, Ranked
from registry.search.text import query_words, word_matches

JSON_FORMAT = 1
TIER_NAMES = {0: "exact name or id"}


def describe_tier(ranked: Ranked) -> str:
    exact, missing, level, _ = ranked.tier
    if exact == 0:
        return TIER_NAMES[0]
    where = FIELD_LEVELS[level] if level < len(FIELD_LEVELS) else "nothing"
    return f"all words in {where}" if missing == 0 else f"{missing} word(s) missing; others in {where}"


def results_json(query: str, ranked: list[Ranked]) -> str:
    return json.dumps(
        {
            "format": JSON_FORMAT,
            "query": query,
            "results": [
                {
                    "rank": position,
                    "id": r.candidate.id,
                    "name": r.candidate.name,
                    "description": r.candidate.extra.get("description", ""),
                    "version": r.candidate.extra.get("version") or None,
                    "tier": r.candidate.tier,
                    "risk": r.candidate.risk,
                    "category": r.candidate.extra.get("category") or None,
                    "last_updated": r.candidate.last_updated or None,
                    "match": {"tier": list(r.tier), "explanation": describe_tier(r), "fields": r.matched},
                }
                for position, r in enumerate(ranked, start=1)
            ],
        },
        ensure_ascii=False,
        indent=2,
    )


def _highlight(text: str, words: list[str]) -> Text:
    result = Text()
    for part in re.split(r"([A-Za-z0-9]+)", text):
        style = "bold yellow" if part and any(word_matches(w, part.lower()) for w in words) else ""
        result.append(part, style=style)
    return result


def no_results_reason(index: Path, query: str, filters: Filters) -> str:
    """Why a search found nothing: no skill matches the words, or which filter left none of those that do."""
    matching = len(search(index, query, Filters(), CANDIDATES))
    given = {name: value for name, value in dataclasses.asdict(filters).items() if value is not None}
    if not matching or not given:
        return f"no results: no skill matches '{query}'"
    count = f"{'at least ' if matching >= CANDIDATES else ''}{matching} skill"
    count += "s match" if matching != 1 else " matches"
    # Name the filters that leave nothing on their own; when each keeps some, it is their combination.
    alone = [
        f"--{name} {value}" for name, value in given.items() if not search(index, query, Filters(**{name: value}), 1)
    ]
    if alone:
        return f"no results: {count} '{query}' but none with " + " and none with ".join(alone)
    together = " and ".join(f"--{name} {value}" for name, value in given.items())
    return f"no results: {count} '{query}' but none with {together} together"


def print_results(query: str, ranked: list[Ranked]) -> None:
    console = make_console()
    words = query_words(query)
    if not ranked:
        console.print(f"no results: no skill matches '{query}'")
        return
    for position, r in enumerate(ranked, start=1):
        c = r.candidate
        line = Text(f"{position:>2}. ")
        line.append_text(_highlight(c.name, words))
        line.append(f"  {c.id}", style="dim")
        line.append(f"  [{c.tier}, risk {c.risk}]")
        console.print(line)
        description = c.extra.get("description", "")
        shown = description[:200] + ("…" if len(description) > 200 else "")
        console.print(Text("    ").append_text(_highlight(shown, words)))
        fields = ", ".join(f"{w} → {f}" for w, f in r.matched.items())
        console.print(Text(f"    why: {describe_tier(r)} ({fields})", style="dim"))

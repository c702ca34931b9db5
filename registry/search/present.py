"""Showing search results: highlighted in a terminal, or as stable JSON for agents."""

from __future__ import annotations

import json
import re

from rich.console import Console
from rich.text import Text

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


def print_results(query: str, ranked: list[Ranked]) -> None:
    console = Console(highlight=False, soft_wrap=True)
    words = query_words(query)
    if not ranked:
        console.print(f"No skill matches '{query}'.")
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

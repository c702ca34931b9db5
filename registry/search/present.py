"""Showing search results: highlighted in a terminal, or as stable JSON for agents."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from registry.search.engine import Result, WordMatch
from registry.search.query import CANDIDATES, Filters, search
from registry.search.terms import stem_key
from registry.search.text import query_words

if TYPE_CHECKING:
    from rich.text import Text

JSON_FORMAT = 2
FIELD_LABELS = {
    "name": "name",
    "tags": "tags or category",
    "description": "description",
    "meta": "headings, tools or inputs",
    "body": "instructions",
}


def describe_word(word: str, match: WordMatch) -> str:
    """`deployments`: "deployments in name, description (as deploy); instructions"; a typo: "(typo of vercel)";
    a synonym: "spreadsheet in name (synonym excel)"."""
    groups: dict[tuple[str, str], list[str]] = {}
    for field in match.fields:
        groups.setdefault((field.how, field.via), []).append(FIELD_LABELS[field.field])
    parts = []
    for (how, via), labels in groups.items():
        said = ", ".join(labels)
        if how == "exact":
            parts.append(said)
        elif how == "stem":
            parts.append(f"{said} (as {via})")
        elif how == "synonym":
            parts.append(f"{said} (synonym {via})")
        else:
            parts.append(f"{said} ({how} of {via})")
    return f"{word} in " + "; ".join(parts)


def describe(result: Result) -> str:
    if result.exact:
        return "exact name or id"
    return "; ".join(describe_word(word, match) for word, match in result.matches.items()) or "no word matched"


def results_json(query: str, results: list[Result]) -> str:
    return json.dumps(
        {
            "format": JSON_FORMAT,
            "query": query,
            "results": [
                {
                    "rank": position,
                    "id": r.record.id,
                    "name": r.record.name,
                    "description": r.record.description,
                    "version": r.record.version or None,
                    "tier": r.record.tier,
                    "risk": r.record.risk,
                    "category": r.record.category or None,
                    "last_updated": r.record.last_updated or None,
                    "match": {
                        "exact": r.exact,
                        "score": round(r.score, 6),
                        "explanation": describe(r),
                        "words": {
                            word: [dataclasses.asdict(field) for field in match.fields]
                            for word, match in r.matches.items()
                        },
                    },
                }
                for position, r in enumerate(results, start=1)
            ],
        },
        ensure_ascii=False,
        indent=2,
    )


def _highlight(text: str, words: list[str]) -> Text:
    from rich.text import Text

    keys = {stem_key(w) for w in words}
    result = Text()
    for part in re.split(r"([A-Za-z0-9]+)", text):
        lower = part.lower()
        marked = part and (stem_key(lower) in keys or any(len(w) >= 3 and lower.startswith(w) for w in words[-1:]))
        result.append(part, style="bold yellow" if marked else "")
    return result


def no_results_reason(site: Path, query: str, filters: Filters) -> str:
    """Why a search found nothing: no skill matches the words, or which filter left none of those that do."""
    matching = len(search(site, query, Filters(), CANDIDATES))
    given = {name: value for name, value in dataclasses.asdict(filters).items() if value is not None}
    if not matching or not given:
        return f"no results: no skill matches '{query}'"
    count = f"{'at least ' if matching >= CANDIDATES else ''}{matching} skill"
    count += "s match" if matching != 1 else " matches"
    # Name the filters that leave nothing on their own; when each keeps some, it is their combination.
    alone = [
        f"--{name} {value}" for name, value in given.items() if not search(site, query, Filters(**{name: value}), 1)
    ]
    if alone:
        return f"no results: {count} '{query}' but none with " + " and none with ".join(alone)
    together = " and ".join(f"--{name} {value}" for name, value in given.items())
    return f"no results: {count} '{query}' but none with {together} together"


def print_results(query: str, results: list[Result]) -> None:
    # rich only here: agents ask for --json, and a process that prints JSON should not pay for a terminal
    from rich.text import Text

    from registry.report import console as make_console

    console = make_console()
    words = query_words(query)
    if not results:
        console.print(f"no results: no skill matches '{query}'")
        return
    for position, r in enumerate(results, start=1):
        line = Text(f"{position:>2}. ")
        line.append_text(_highlight(r.record.name, words))
        line.append(f"  {r.record.id}", style="dim")
        line.append(f"  [{r.record.tier}, risk {r.record.risk}]")
        console.print(line)
        description = r.record.description
        shown = description[:200] + ("…" if len(description) > 200 else "")
        console.print(Text("    ").append_text(_highlight(shown, words)))
        console.print(Text(f"    why: {describe(r)}", style="dim"))

"""Ranking in tiers, as documented in README "Search":

Soft words (help, make, write, ...) count when they match but are never "missing".

1. exact name or id;
2. every query word in the name (a query word matches a skill's word when it is the same word, has
   the same Snowball stem, is the start of it while being typed (the last word, from 3 letters), or,
   for a word the skill has nowhere, a typo away: 1 edit from 5 letters, 2 from 9);
3. every word in name, tags or category;
4. every word also counting the description;
5. every word also counting the body's headings, tool, input and argument names and triggers;
then the same four field levels for documents that miss one word, two words, and so on (among
those partial matches, the fields the found words sit in also count).

Inside a tier: trust tier (official, verified, community), then risk (lower first), then
freshness (last updated, newer first), then the text score, then the id, so ties never
depend on the index. Last, the squat gate: a community skill whose name copies an official or
verified skill's name is moved below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from registry.search.text import SOFT_WORDS, matches_without_typo, query_words, typo_matches, words

TIER_ORDER = {"official": 0, "verified": 1, "community": 2}
RISK_ORDER = {"low": 0, "medium": 1, "high": 2, "critical": 3}
FIELD_LEVELS = ("name", "tags", "description", "body")


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    tier: str
    risk: str
    last_updated: str  # ISO date or ""
    name_words: tuple[str, ...]
    tag_words: tuple[str, ...]  # tags and category
    description_words: tuple[str, ...]
    body_words: tuple[str, ...]  # headings, tools, inputs, arguments, triggers
    text_score: float = 0.0
    extra: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Ranked:
    candidate: Candidate
    tier: tuple[int, int, int, int]  # (exact?, missing words, field level, field levels summed when partial)
    matched: dict[str, str]  # query word -> the field it matched best


def match_fields(query: Sequence[str], candidate: Candidate) -> dict[str, str]:
    fields = (
        ("name", candidate.name_words),
        ("tags", candidate.tag_words),
        ("description", candidate.description_words),
        ("body", candidate.body_words),
    )
    matched: dict[str, str] = {}
    for position, word in enumerate(query):
        typing = position == len(query) - 1
        # A typo is assumed only for a word the skill has nowhere, not even stemmed: a skill with
        # "testing" in its body does not match "testing" in its name through "resting".
        found = next(
            (
                name
                for name, field_words in fields
                if word in field_words or any(matches_without_typo(word, fw, typing) for fw in field_words)
            ),
            None,
        ) or next((name for name, field_words in fields if any(typo_matches(word, fw) for fw in field_words)), None)
        if found:
            matched[word] = found
    return matched


def tier_of(
    raw_query: str, query: Sequence[str], candidate: Candidate
) -> tuple[tuple[int, int, int, int], dict[str, str]]:
    normalised = " ".join(words(raw_query))
    if normalised and (normalised == " ".join(words(candidate.name)) or raw_query.strip().lower() == candidate.id):
        return (0, 0, 0, 0), {w: "name" for w in query}
    matched = match_fields(query, candidate)
    missing = sum(1 for word in query if word not in matched and word not in SOFT_WORDS)
    levels = [FIELD_LEVELS.index(f) for f in matched.values()]
    level = max(levels, default=len(FIELD_LEVELS))
    # Complete matches form the documented tiers; among partial ones, better fields break ties.
    return (1, missing, level, sum(levels) if missing else 0), matched


def rank(raw_query: str, candidates: Sequence[Candidate]) -> list[Ranked]:
    query = query_words(raw_query)
    ranked = []
    for candidate in candidates:
        tier, matched = tier_of(raw_query, query, candidate)
        if not matched:
            continue
        ranked.append(Ranked(candidate, tier, matched))
    ranked.sort(
        key=lambda r: (
            r.tier,
            TIER_ORDER.get(r.candidate.tier, 3),
            RISK_ORDER.get(r.candidate.risk, 4),
            _newest_first(r.candidate.last_updated),
            -r.candidate.text_score,
            r.candidate.id,
        )
    )
    return squat_gate(ranked)


def _newest_first(date: str) -> tuple[int, str]:
    # Without a date, sort after dated skills; invert the string so newer dates sort first.
    return (1, "") if not date else (0, "".join(chr(0x10FFFF - ord(c)) for c in date))


def squat_gate(ranked: list[Ranked]) -> list[Ranked]:
    """Move a community skill named exactly like an official or verified one below it."""
    result = list(ranked)
    trusted_names = {r.candidate.name for r in ranked if r.candidate.tier in ("official", "verified")}
    index = 0
    while index < len(result):
        item = result[index]
        if item.candidate.tier == "community" and item.candidate.name in trusted_names:
            later = [
                j for j in range(index + 1, len(result))
                if result[j].candidate.name == item.candidate.name and result[j].candidate.tier != "community"
            ]  # fmt: skip
            if later:
                result.insert(later[-1], result.pop(index))
                continue
        index += 1
    return result

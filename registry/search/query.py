"""Answering a query from the Whoosh index: candidates by text score, order by rank.py."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from whoosh import index, query

from registry.search.rank import Candidate, Ranked, rank
from registry.search.text import query_words, typo_budget, words

CANDIDATES = 300
TEXT_FIELDS = ("name", "description", "body")


@dataclass(frozen=True)
class Filters:
    category: str | None = None
    trust: str | None = None
    dialect: str | None = None
    risk: str | None = None

    def accepts(self, stored: dict) -> bool:
        return (
            (self.category is None or stored.get("category") == self.category)
            and (self.trust is None or stored.get("tier") == self.trust)
            and (self.risk is None or stored.get("risk") == self.risk)
            and (self.dialect is None or self.dialect in (stored.get("dialects") or "").split(","))
        )


def candidate_from(stored: dict, score: float) -> Candidate:
    tags = [t for t in (stored.get("tags") or "").split(",") if t]
    return Candidate(
        id=stored["id"],
        name=stored.get("name") or "",
        tier=stored.get("tier") or "community",
        risk=stored.get("risk") or "low",
        last_updated=stored.get("last_updated") or "",
        # Distinct words only: headings and triggers repeat words, and each is matched once.
        name_words=_distinct(words(stored.get("name") or "")),
        tag_words=_distinct([w for t in tags for w in words(t)] + words(stored.get("category") or "")),
        description_words=_distinct(words(stored.get("description") or "")),
        body_words=_distinct(words(stored.get("body") or "")),
        text_score=round(score, 6),
        extra=stored,
    )


def _distinct(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _whoosh_query(raw: str, schema, reader=None) -> query.Query:
    terms: list[query.Query] = []
    typed = query_words(raw)
    for position, word in enumerate(typed):
        # Prefixes as ranking grants them (text.word_matches): only for the word being typed (the
        # last), from 3 letters. Any other prefix only adds candidates ranking would not match.
        as_prefix = position == len(typed) - 1 and len(word) >= 3
        for field_name in TEXT_FIELDS:
            # Text fields are stemmed when indexed: look up the stem, and the raw word as a prefix.
            for stem in schema[field_name].process_text(word) or [word]:
                terms.append(query.Term(field_name, stem))
                # Four letters are below the typo budget, but ranking takes a doubled letter written once
                # (skil ~ skill) as a typo: one edit finds those candidates.
                budget = typo_budget(stem) or (1 if len(stem) == 4 else 0)
                # A word the index knows is taken as typed: expanding it to every word within the typo
                # budget makes the query large and slow, and ranking prefers the exact word anyway.
                known = reader is not None and reader.doc_frequency(field_name, stem) > 0
                if budget and not known:
                    terms.append(query.FuzzyTerm(field_name, stem, maxdist=budget, prefixlength=1))
            if as_prefix:
                terms.append(query.Prefix(field_name, word))
        terms.append(query.Term("tags", word))
        if as_prefix:
            terms.append(query.Prefix("tags", word))
        terms.append(query.Term("category", word))
    return query.Or(terms) if terms else query.NullQuery


def search(directory: Path, raw_query: str, filters: Filters = Filters(), limit: int = 10) -> list[Ranked]:
    """The best `limit` skills for a query, ranked as rank.py says (the same order as the site)."""
    with _open(directory).searcher() as searcher:
        by_id = searcher.document(id=raw_query.strip().lower()) if "/" in raw_query else None
        exact = [candidate_from(by_id, 0.0)] if by_id and filters.accepts(by_id) else []
        hits = searcher.search(_whoosh_query(raw_query, searcher.schema, searcher.reader()), limit=CANDIDATES)
        candidates = [candidate_from(hit.fields(), hit.score) for hit in hits if filters.accepts(hit.fields())]
    seen = {c.id for c in candidates}
    candidates += [c for c in exact if c.id not in seen]
    return rank(raw_query, candidates)[:limit]


def _open(directory: Path) -> index.Index:
    """The index, opened once per process for each version of it (a rebuild makes a new TOC file)."""
    toc = max((p.stat().st_mtime_ns for p in directory.glob("*.toc")), default=0)
    return _open_version(str(directory.resolve()), toc)


@functools.lru_cache(maxsize=4)
def _open_version(directory: str, toc: int) -> index.Index:
    return index.open_dir(directory)

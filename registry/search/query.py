"""Answering a query from the Whoosh index: candidates by text score, order by rank.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from whoosh import index, query

from registry.search.rank import Candidate, Ranked, rank
from registry.search.text import query_words, typo_budget, words

CANDIDATES = 300


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


def _whoosh_query(raw: str, schema) -> query.Query:
    terms: list[query.Query] = []
    for word in query_words(raw):
        for field_name in ("name", "description", "body"):
            # Text fields are stemmed when indexed: look up the stem, and the raw word as a prefix.
            for stem in schema[field_name].process_text(word) or [word]:
                terms.append(query.Term(field_name, stem))
                budget = typo_budget(stem)
                if budget:
                    terms.append(query.FuzzyTerm(field_name, stem, maxdist=budget, prefixlength=1))
            if len(word) >= 3:
                terms.append(query.Prefix(field_name, word))
        terms.append(query.Term("tags", word))
        terms.append(query.Prefix("tags", word))
        terms.append(query.Term("category", word))
    return query.Or(terms) if terms else query.NullQuery


def search(directory: Path, raw_query: str, filters: Filters = Filters(), limit: int = 10) -> list[Ranked]:
    ix = index.open_dir(str(directory))
    try:
        with ix.searcher() as searcher:
            by_id = searcher.document(id=raw_query.strip().lower()) if "/" in raw_query else None
            exact = [candidate_from(by_id, 0.0)] if by_id and filters.accepts(by_id) else []
            hits = searcher.search(_whoosh_query(raw_query, ix.schema), limit=CANDIDATES)
            candidates = [candidate_from(hit.fields(), hit.score) for hit in hits if filters.accepts(hit.fields())]
        seen = {c.id for c in candidates}
        candidates += [c for c in exact if c.id not in seen]
        return rank(raw_query, candidates)[:limit]
    finally:
        ix.close()

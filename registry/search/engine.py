"""Ranking, as documented in README "Search"; static/search-rank.js implements the same steps.

Both read a source of the same numbers: the site's static shards, written from the build's Whoosh
index (the CLI: query.SiteSource; agents and tests: shards.ShardSource; the browser: over HTTP), or
that index itself (query.WhooshSource, the reference the tests hold the shards to). Plain Python
over the postings of the query's words: a CLI query is a fresh process, which numpy's import
would cost more than the ranking does.

1. Each query word is looked up with its forms (the same Snowball stem key), the forms of its
   synonyms (synonyms.yaml, as the source holds it) and, when it is the word being typed, the 8
   commonest indexed words it starts; a word the index does not know in any of these is read as a
   typo of the nearest indexed words (1 edit from 5 letters, 2 from 9, or a doubled letter written once).
2. A skill's score is BM25F: per word, the stored weights (field-weighted, length-normalised
   frequencies) of the forms it holds, scaled by how the word matched (exact 1, stem 0.9, synonym
   0.8, prefix 0.7, typo 0.6), saturated with k1 and multiplied by the word's idf; summed over the words.
3. Order: an exact name or id first; a community skill named like an official or verified one
   (a squatter) after every other; then skills with every word in their name; then the score;
   ties by trust tier, risk and freshness (order_key), then by document number (a hash of the id).
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from registry.search.synonyms import synonyms_of
from registry.search.terms import BIT_COUNT, FIELD_BITS, FIELD_MASK, FIELDS, TF_SCALE, normalized, prefix2, stem_key
from registry.search.text import SOFT_WORDS, distance, doubled_letter_apart, query_words, typo_budget

K1 = 1.5
# A synonym counts less than the word itself or its forms, more than a guess at what is being typed.
KINDS = {"exact": 1.0, "stem": 0.9, "synonym": 0.8, "prefix": 0.7, "typo": 0.6}
KIND_ORDER = tuple(KINDS)
EXPANSIONS = 8
TIER_ORDER = {"official": 0, "verified": 1, "community": 2}
RISK_ORDER = {"low": 0, "medium": 1, "high": 2, "critical": 3}
FILTER_FIELDS = ("category", "tier", "risk", "dialect")


@dataclass(frozen=True)
class Record:
    """What a result shows, and what breaks ties: `search/docs/<n>.json` holds one per skill."""

    id: str
    name: str
    description: str
    tier: str
    risk: str
    last_updated: str
    category: str
    dialects: tuple[str, ...]
    version: str

    @classmethod
    def from_list(cls, values: Sequence) -> Record:
        id_, name, description, tier, risk, last_updated, category, dialects, version = values
        return cls(id_, name, description, tier, risk, last_updated, category, tuple(dialects), version)


@dataclass(frozen=True)
class FieldMatch:
    field: str
    how: str  # exact | stem | synonym | prefix | typo: the best way the word matched in this field
    via: str  # the indexed word that matched (differs from the query word for stem, synonym, prefix and typo)


@dataclass(frozen=True)
class WordMatch:
    fields: tuple[FieldMatch, ...]  # in FIELDS order

    @property
    def how(self) -> str:
        return min((f.how for f in self.fields), key=KIND_ORDER.index)


@dataclass(frozen=True)
class Result:
    slot: int
    record: Record
    key: tuple
    score: float
    matches: dict[str, WordMatch]  # query word -> how it matched; words it did not match are absent

    @property
    def exact(self) -> bool:
        return self.key[0] == 0


class Source(Protocol):
    live: int  # documents in the index
    size: int  # one more than the highest document number
    squatters: frozenset[int]
    synonyms: Sequence[Sequence[str]]  # the synonym table the index was built with (synonyms.synonym_groups)

    def vocabulary(self, prefix: str) -> Mapping[str, int]: ...  # word -> document frequency

    def postings(self, word: str) -> tuple[Sequence[int], Sequence[int]]: ...  # ascending documents, weights

    def exact(self, key: str) -> Iterable[int]: ...

    def with_value(self, field: str, value: str) -> Iterable[int]: ...

    def order(self, documents: Iterable[int]) -> Mapping[int, int]: ...  # order_key of each

    def records(self, documents: Iterable[int]) -> Mapping[int, Record]: ...


NO_DATE = 2**32 - 1


def order_key(tier: str, risk: str, last_updated: str) -> int:
    """Trust tier, then risk (lower first), then newest first (undated last), as one integer per skill:
    `search/order/<n>.json` holds it, so breaking a tie never needs a skill's whole record."""
    rank = TIER_ORDER.get(tier, 3) * 5 + RISK_ORDER.get(risk, 4)
    try:
        seconds = int(datetime.fromisoformat(last_updated).timestamp())
    except ValueError:
        seconds = None
    age = NO_DATE if seconds is None else NO_DATE - 1 - max(0, min(seconds, NO_DATE - 2))
    return rank * 2**32 + age


@dataclass(frozen=True)
class Expansion:
    word: str
    kind: str


def expand(
    word: str, typing: bool, vocabulary: Mapping[str, int], synonyms: Sequence[tuple[str, Mapping[str, int]]] = ()
) -> list[Expansion]:
    """The indexed words a query word stands for, in the order static/search-rank.js gives them: its forms, each
    synonym's forms (`synonyms` pairs each synonym with its vocabulary file), the words it starts when it is
    being typed, and only when none of these is indexed, the nearest words as typos."""
    key = stem_key(word)
    forms = sorted(
        (v for v in vocabulary if stem_key(v) == key), key=lambda v: (v != word, -vocabulary[v], v)
    )  # fmt: skip
    found = [Expansion(v, "exact" if v == word else "stem") for v in forms]
    taken = set(forms)
    for synonym, known in synonyms:
        synonym_key = stem_key(synonym)
        alike = sorted(
            (v for v in known if stem_key(v) == synonym_key and v not in taken),
            key=lambda v, synonym=synonym, known=known: (v != synonym, -known[v], v),
        )
        found += [Expansion(v, "synonym") for v in alike]
        taken.update(alike)
    if typing and len(word) >= 3:
        starting = sorted(
            (v for v in vocabulary if v.startswith(word) and v not in taken), key=lambda v: (-vocabulary[v], v)
        )  # fmt: skip
        found += [Expansion(v, "prefix") for v in starting[:EXPANSIONS]]
    if not found:
        budget = typo_budget(word)
        near = []
        for v in vocabulary:
            if doubled_letter_apart(word, v):
                near.append((1, -vocabulary[v], v))
            elif budget and (apart := distance(word, v, budget)) <= budget:
                near.append((apart, -vocabulary[v], v))
        found = [Expansion(v, "typo") for _, _, v in sorted(near)[:EXPANSIONS]]
    return found


@dataclass
class _WordHits:
    word: str
    expansions: list[tuple[Expansion, Sequence[int], Sequence[int]]]  # each with its documents and weights
    pseudo: dict[int, float]  # per matched document: the summed weighted pseudo-frequency
    bits: dict[int, int]  # per matched document: the fields it matched in


def _word_hits(source: Source, word: str, typing: bool) -> _WordHits:
    pseudo: dict[int, float] = {}
    bits: dict[int, int] = {}
    expansions = []
    synonyms = [(synonym, source.vocabulary(prefix2(synonym))) for synonym in synonyms_of(word, source.synonyms)]
    said: set[int] | None = None  # documents holding the word in one of its own forms
    for expansion in expand(word, typing, source.vocabulary(prefix2(word)), synonyms):
        documents, weights = source.postings(expansion.word)
        if expansion.kind == "synonym":
            # A synonym stands in for a word a skill does not say; it adds nothing where the skill says the word.
            said = set(pseudo) if said is None else said
            kept = [i for i, document in enumerate(documents) if document not in said]
            documents, weights = [documents[i] for i in kept], [weights[i] for i in kept]
        if not len(documents):
            continue
        expansions.append((expansion, documents, weights))
        # The same operations in the same order as search-rank.js: the sums are bit-identical.
        kind = KINDS[expansion.kind]
        for document, weight in zip(documents, weights, strict=True):
            pseudo[document] = pseudo.get(document, 0.0) + kind * (weight >> BIT_COUNT) / TF_SCALE
            bits[document] = bits.get(document, 0) | (weight & FIELD_MASK)
    return _WordHits(word, expansions, pseudo, bits)


def search(source: Source, raw_query: str, filters: Mapping[str, str] | None = None, limit: int = 10) -> list[Result]:
    query = query_words(raw_query)
    if not query or not source.live:
        return []
    size = source.size
    hits = [_word_hits(source, word, position == len(query) - 1) for position, word in enumerate(query)]
    # Only documents some word matched (or named exactly) can rank: every sum is kept per such document.
    score: dict[int, float] = {}
    outside_name: set[int] = set()
    candidates: set[int] = set()
    for hit in hits:
        df = len(hit.pseudo)
        idf = math.log(1 + (source.live - df + 0.5) / (df + 0.5))
        for document, t in hit.pseudo.items():
            score[document] = score.get(document, 0.0) + idf * t * (K1 + 1) / (K1 + t)
            if not hit.bits[document] & FIELD_BITS["name"]:
                outside_name.add(document)
        candidates.update(hit.pseudo)
    required = [hit.pseudo for hit in hits if hit.word not in SOFT_WORDS]
    keys = [normalized(raw_query)] + ([raw_query.strip().lower()] if "/" in raw_query else [])
    exact = {document for key in keys for document in source.exact(key) if document < size}
    candidates |= exact
    for field, value in (filters or {}).items():
        candidates &= {document for document in source.with_value(field, value) if document < size}
    if not candidates:
        return []
    squatters = source.squatters

    def partial(document: int) -> tuple[int, int, int, int]:
        squatter = document in squatters
        complete = document not in outside_name and all(document in matched for matched in required)
        return (
            0 if document in exact and not squatter else 1,
            int(squatter),
            0 if complete else 1,
            -math.floor(score.get(document, 0.0) * 1e6 + 0.5),
        )

    keyed = sorted((partial(document), document) for document in candidates)
    chosen = keyed[:limit]
    if len(keyed) > limit:
        # Everything tied with the last one kept: the tie-break keys below decide among them.
        last = chosen[-1][0]
        chosen += [(key, document) for key, document in keyed[limit:] if key == last]
    window = {document: key for key, document in chosen}
    # Only skills tied with another on everything above need their tie-break key (order/ chunks).
    counts = Counter(window.values())
    orders = source.order([document for document, key in window.items() if counts[key] > 1])
    ranked = {document: (*key, orders.get(document, 0), document) for document, key in window.items()}
    best = sorted(ranked, key=ranked.__getitem__)[:limit]
    records = source.records(best)
    return [
        Result(document, records[document], ranked[document], score.get(document, 0.0), _explain(hits, document))
        for document in best
        if document in records
    ]


def _explain(hits: list[_WordHits], document: int) -> dict[str, WordMatch]:
    """Per query word, each field it matched in, and the best way it matched there: only what the postings hold."""
    matches = {}
    for hit in hits:
        if document not in hit.pseudo or hit.word in matches:
            continue
        best: dict[str, FieldMatch] = {}
        for expansion, documents, weights in hit.expansions:
            position = _position(documents, document)
            if position is None:
                continue
            bits = int(weights[position])
            for field in FIELDS:
                held = bits & FIELD_BITS[field]
                better = field not in best or KIND_ORDER.index(expansion.kind) < KIND_ORDER.index(best[field].how)
                if held and better:
                    best[field] = FieldMatch(field, expansion.kind, expansion.word)
        matches[hit.word] = WordMatch(tuple(best[field] for field in FIELDS if field in best))
    return matches


def _position(documents: Sequence[int], document: int) -> int | None:
    """Where `document` is in ascending `documents`, or None."""
    position = bisect.bisect_left(documents, document)
    return position if position < len(documents) and documents[position] == document else None

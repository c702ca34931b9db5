"""engine.Source over SearchDocuments held in memory: ranking tests without building a site."""

from collections import defaultdict

import numpy as np

from registry.search.documents import SearchDocument
from registry.search.engine import Record, order_key
from registry.search.index import assign_slots, slot_count, squatters
from registry.search.synonyms import synonym_groups
from registry.search.terms import normalized, prefix2, word_weights


def document(skill_id, name, tier="community", risk="low", updated="", tags="", description="", meta="", body=""):
    fields = {"name": name, "tags": tags, "description": description, "meta": meta, "body": body}
    words, weights = SearchDocument.pack(word_weights(fields))
    return SearchDocument(
        id=skill_id, name=name, description=description, tags=tuple(tags.split()), category="", publisher="p",
        version="", tier=tier, risk=risk, dialects=("agent-skills",), last_updated=updated,
        words=words, weights=weights,
    )  # fmt: skip


class MemorySource:
    def __init__(self, documents: list[SearchDocument], synonyms=None) -> None:
        self.synonyms = synonym_groups() if synonyms is None else synonyms
        # Numbered as the index and the shards number them: a skill's number depends on the set of ids only.
        slots = assign_slots(d.id for d in documents)
        self.documents = {slots[d.id]: d for d in documents}
        self.live = len(documents)
        self.size = slot_count(len(documents))
        postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for number, doc in sorted(self.documents.items()):
            for word, weight in doc.word_weights():
                postings[word].append((number, weight))
        self._postings = {w: (np.array([d for d, _ in p]), np.array([x for _, x in p])) for w, p in postings.items()}
        self._vocabulary: dict[str, dict[str, int]] = defaultdict(dict)
        for word, found in postings.items():
            self._vocabulary[prefix2(word)][word] = len(found)
        copied = set(squatters(documents))
        self.squatters = frozenset(n for n, d in self.documents.items() if d.id in copied)

    def vocabulary(self, prefix):
        return self._vocabulary.get(prefix, {})

    def postings(self, word):
        empty = np.empty(0, dtype=np.int64)
        return self._postings.get(word, (empty, empty))

    def exact(self, key):
        return [n for n, d in self.documents.items() if key in (normalized(d.name), d.id)]

    def with_value(self, field, value):
        values = {"tier": lambda d: [d.tier], "risk": lambda d: [d.risk], "category": lambda d: [d.category],
                  "dialect": lambda d: list(d.dialects)}[field]  # fmt: skip
        return [n for n, d in self.documents.items() if value in values(d)]

    def order(self, numbers):
        return {
            n: order_key(self.documents[n].tier, self.documents[n].risk, self.documents[n].last_updated)
            for n in numbers
        }

    def records(self, numbers):
        return {n: Record.from_list(self.documents[n].record()) for n in numbers}

"""Search outputs: the Whoosh index (CLI), Pagefind (site), token shards (agents), the search page.

The Whoosh index stays in the build cache beside the site (`.<out>.cache/whoosh`): its segment
names are random, and the site must be byte-for-byte reproducible.

Shards for agents (documented in README "Search for agents"):
- `search/manifest.json`: format, how tokens are made, shard and chunk names, the ranking rules;
- `search/tokens/<p>.json` for every two-character token prefix `p`: token -> [[doc, fields], ...]
  where `doc` indexes the document list and `fields` is a bit set (1 name, 2 tags or category,
  4 description, 8 headings, tool and input names, triggers);
- `search/docs/<n>.json`: documents `n*CHUNK` to `(n+1)*CHUNK - 1`, each
  [id, name, tier, risk, last_updated, url].
An agent splits its query into words, fetches one shard per distinct two-letter prefix, and one
document chunk per chunk its best matches fall in: a few kilobytes, whatever the registry's size.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from array import array
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter
from registry.output import SiteOutput
from registry.search.documents import SearchDocument, make_document
from registry.search.index import IndexStats, update_index
from registry.search.text import STOP_WORDS, words
from registry.state import BuildState, key_of

if TYPE_CHECKING:
    from registry.emit.registry import SiteContext, SkillContext

CHUNK = 500
FIELD_BITS = {"name": 1, "tags": 2, "description": 4, "body": 8}
SHARD_FORMAT = 1


@dataclass(frozen=True)
class SearchStats:
    whoosh: IndexStats
    shards: int
    pagefind_seconds: float
    reused: bool = False  # Pagefind's bundle was kept: no page it reads changed

    def to_json(self) -> dict:
        return {
            "whoosh_seconds": round(self.whoosh.seconds, 4),
            "whoosh_indexed": self.whoosh.indexed,
            "agent_shards": self.shards,
            "pagefind_seconds": round(self.pagefind_seconds, 4),
            "pagefind_reused": self.reused,
        }


def token_fields(doc: SearchDocument) -> dict[str, int]:
    tokens: dict[str, int] = defaultdict(int)
    sources = {
        "name": doc.name,
        "tags": " ".join(doc.tags) + " " + doc.category,
        "description": doc.description,
        "body": doc.body,
    }
    for field, text in sources.items():
        for word in words(text):
            if word not in STOP_WORDS and len(word) <= 40:
                tokens[word] |= FIELD_BITS[field]
    return tokens


def write_shards(writer: SiteWriter, documents: list[SearchDocument]) -> int:
    # Postings packed as document * 16 + field bits in int arrays: millions of them at 50,000 skills
    # would take gigabytes as Python lists.
    shards: dict[str, dict[str, array]] = defaultdict(lambda: defaultdict(lambda: array("q")))
    for number, doc in enumerate(documents):
        for token, bits in sorted(token_fields(doc).items()):
            shards[token[:2]][token].append(number * 16 + bits)
    shard_count = len(shards)
    for prefix in sorted(shards):
        tokens = shards.pop(prefix)
        body = {t: [[packed >> 4, packed & 15] for packed in tokens[t]] for t in sorted(tokens)}
        writer.write_json(f"search/tokens/{prefix}.json", body)
    for start in range(0, len(documents), CHUNK):
        chunk = [
            [d.id, d.name, d.tier, d.risk, d.last_updated, SiteUrls.skill_page(d.id)]
            for d in documents[start : start + CHUNK]
        ]
        writer.write_json(f"search/docs/{start // CHUNK}.json", chunk)
    writer.write_json(
        "search/manifest.json",
        {
            "format": SHARD_FORMAT,
            "documents": len(documents),
            "chunk_size": CHUNK,
            "tokens": "lowercase ASCII words [a-z0-9]+, accents folded, camelCase and kebab-case split",
            "stop_words": sorted(STOP_WORDS),
            "shard": "search/tokens/{first two characters of the token}.json",
            "documents_chunk": "search/docs/{document number // chunk_size}.json",
            "document_fields": ["id", "name", "tier", "risk", "last_updated", "url"],
            "field_bits": FIELD_BITS,
            "ranking": "README.md, section 'Search'",
        },
        pretty=True,
    )
    return shard_count


def run_pagefind(site: Path, output: Path, glob: str = "skills/**/index.html") -> None:
    """Index the skill cards (elements marked data-pagefind-body) of the skill pages into `output`."""
    subprocess.run(
        [
            sys.executable, "-m", "pagefind", "--site", str(site), "--output-path", str(output),
            # Only the skill pages: not the rest of the site, and never a skill's own HTML files under
            # raw/ or .well-known/, which could otherwise put text of their choosing into site search.
            "--glob", glob, "--silent", "--force-language", "en",
        ],
        check=True,
        capture_output=True,
        timeout=1800,
    )  # fmt: skip


def emit_search(writer: SiteOutput, documents: list[SearchDocument], cache: Path, state: BuildState) -> SearchStats:
    """Whoosh (incremental), token shards, and Pagefind: re-run only when a page it reads changed."""
    stats = update_index(cache / "whoosh", documents)
    shard_count = write_shards(writer, documents)
    started = time.perf_counter()
    pages = key_of(
        "pagefind", sorted((p, d) for p, d in writer.desired.items() if p.startswith("skills/") and p.endswith(".html"))
    )
    saved = state.meta("pagefind")
    if isinstance(saved, tuple) and saved[0] == pages and all(writer.keep(p, d) for p, d in saved[1].items()):
        return SearchStats(stats, shard_count, 0.0, reused=True)
    writer.finish()  # Pagefind reads the pages from disk: they must be there, and stale ones gone
    with tempfile.TemporaryDirectory(prefix="pagefind-", dir=cache) as scratch:
        bundle = Path(scratch) / "pagefind"
        has_skill_pages = any(p.startswith("skills/") and p.endswith("/index.html") for p in writer.desired)
        # With no skill page at all (an empty registry), the bundle still has to exist for the search page.
        run_pagefind(writer.root, bundle, "skills/**/index.html" if has_skill_pages else "**/*.html")
        produced: dict[str, str] = {}
        for path in sorted(bundle.rglob("*")):
            if path.is_file():
                relative = "pagefind/" + path.relative_to(bundle).as_posix()
                data = path.read_bytes()
                writer.write_bytes(relative, data)
                produced[relative] = writer.desired[relative]
    state.set_meta("pagefind", (pages, produced))
    return SearchStats(stats, shard_count, time.perf_counter() - started)


@dataclass(frozen=True)
class SiteSearch:
    """Per skill its search document; per site the Whoosh index, the agents' shards and Pagefind's bundle.
    Last in EMITTERS: Pagefind reads every finished skill page from disk."""

    name: ClassVar[str] = "search"
    stage: ClassVar[str] = "search"

    def skill(self, context: SkillContext, writer: SiteWriter) -> SearchDocument:
        return make_document(context.skill, context.assessment.trust.tier, context.card.last_updated)

    def site(self, context: SiteContext, writer: SiteOutput, results: Sequence[SearchDocument]) -> SearchStats:
        return emit_search(writer, list(results), context.cache, context.state)

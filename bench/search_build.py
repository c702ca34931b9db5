"""The build's search stage alone, cold and with one skill changed, from one run:

    python -m bench.search_build --source /tmp/registry-1000/skills-index [--rounds 3]

The search documents (each skill's words and weights, what the per-skill hook hands the stage) are
made once by a real build of the source and kept in `--documents` (a pickle; made again when missing).
Then, per round, in this process: a cold stage (an empty cache and an empty site: the Whoosh index
made and every shard written), and the same stage after one skill's words, weight and description
changed (the index updated, the shards it touches rewritten, into the folder holding the last site). Each prints CPU time (process_time:
the machine is shared, wall time is noisy), wall time, and the Whoosh and shard parts, best of the
rounds. Run it with another checkout's `registry` first on PYTHONPATH to compare code in one sitting.
"""

from __future__ import annotations

import argparse
import pickle
import shutil
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from registry.emit.output import SiteOutput
from registry.search.documents import SearchDocument
from registry.state import BuildState


def collect_documents(source: Path, documents: Path) -> list[SearchDocument]:
    """The search documents of every published skill of `source`, from one real build (kept in `documents`)."""
    if documents.is_file():
        return pickle.loads(documents.read_bytes())
    from registry.build import build
    from registry.config import BuildOptions
    from registry.emit import search

    captured: list[SearchDocument] = []
    original = search.emit_search

    def capture(writer, found, *args, **kwargs):
        captured.extend(found)
        return original(writer, found, *args, **kwargs)

    search.emit_search = capture
    workdir = Path(tempfile.mkdtemp(prefix="search-build-docs-"))
    try:
        build(BuildOptions(source=source, out=workdir / "site"))
    finally:
        search.emit_search = original
        shutil.rmtree(workdir, ignore_errors=True)
    documents.parent.mkdir(parents=True, exist_ok=True)
    documents.write_bytes(pickle.dumps(captured, pickle.HIGHEST_PROTOCOL))
    return captured


def changed_one(documents: list[SearchDocument], number: int) -> list[SearchDocument]:
    """The same documents with one skill edited: a word added, another said more often, a new description."""
    changed = list(documents)
    doc = changed[number]
    weighted = dict(doc.word_weights())
    first = next(iter(weighted), None)
    if first is not None:
        weighted[first] += 1 << 5
    weighted["benchmarkedit"] = (8 << 5) | 16
    words, weights = SearchDocument.pack(weighted)
    changed[number] = replace(doc, description=doc.description + " Edited.", words=words, weights=weights)
    return changed


def one_stage(documents: list[SearchDocument], cache: Path, site: Path, state: BuildState,
              served: SiteOutput | None) -> tuple[SiteOutput, dict]:  # fmt: skip
    from registry.emit import search

    shard_cpu = []
    write_shards = search.write_shards

    def timed(*args, **kwargs):  # the shards' CPU time; the rest of the stage is the Whoosh index's
        started = time.process_time()
        try:
            return write_shards(*args, **kwargs)
        finally:
            shard_cpu.append(time.process_time() - started)

    search.write_shards = timed

    # A rebuild writes into a folder that already holds the last site (the double-buffered spare, in the steady
    # state of one edit after another): a file kept costs nothing, a changed one is written.
    writer = SiteOutput(site, served.desired, served.root, served.present) if served else SiteOutput(site)
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        stats = search.emit_search(writer, documents, cache, state, "bench")
    finally:
        search.write_shards = write_shards
    figures = {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - wall,
        "shard_cpu": sum(shard_cpu),
        "whoosh_wall": stats.whoosh.seconds,
        "shard_wall": stats.shard_seconds,
        "indexed": stats.whoosh.indexed,
        "shards_written": stats.shards_written,
        "shards_changed": stats.shards_changed,
    }
    return writer, figures


def run(documents: list[SearchDocument], rounds: int) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {"cold": [], "one changed": []}
    edited = changed_one(documents, len(documents) // 2)
    for _ in range(rounds):
        workdir = Path(tempfile.mkdtemp(prefix="search-build-"))
        try:
            cache = workdir / ".site.cache"
            cache.mkdir()
            state = BuildState(cache / "state.sqlite")
            try:
                first, figures = one_stage(documents, cache, workdir / "site", state, None)
                found["cold"].append(figures)
                _, figures = one_stage(edited, cache, workdir / "site", state, first)
                found["one changed"].append(figures)
            finally:
                state.close()
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True, help="a skills folder (bench/synthetic.py makes one)")
    parser.add_argument("--documents", type=Path, help="where the documents are kept (default: beside the source)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    kept = args.documents or args.source.parent / f".{args.source.name}.search-documents.pickle"
    documents = collect_documents(args.source, kept)
    print(f"{len(documents)} search documents from {args.source}; best of {args.rounds} rounds")
    for variant, runs in run(documents, args.rounds).items():
        best = min(runs, key=lambda r: r["cpu"])
        whoosh = best["cpu"] - best["shard_cpu"]
        print(
            f"  {variant:12} CPU {best['cpu']:6.3f} s (median {statistics.median(r['cpu'] for r in runs):.3f}): "
            f"Whoosh {whoosh:.3f} s ({best['indexed']} indexed), shards {best['shard_cpu']:.3f} s "
            f"({best['shards_written']} written, {best['shards_changed']} changed); wall {best['wall']:.3f} s"
        )


if __name__ == "__main__":
    main()

"""Body rendering, old against new: `python bench/markdown_render.py [--corpus DIR] [--baseline REV] [--rounds N]`.

Renders the body of every SKILL.md under the corpus (default ../shared/corpus) with this tree's
`registry.emit.markdown` and with the one of git revision REV (default 2e222b1, the last one on
markdown-it-py), each in its own interpreter with that tree first on PYTHONPATH. REV is taken out
whole with `git archive` into a temporary folder, so the repository's git state is not touched. Both
render the same bodies with the same link context, N rounds (default 5) after one warm-up round;
a document's time is its median over the rounds. Prints, per renderer, the median and p95 of the
per-document milliseconds and the total of one round, and the old/new ratios; also how many
documents show the same visible text (tags removed, spaces collapsed) under both.

`--build SOURCE` also runs one cold build of SOURCE (`--jobs 1`, into a temporary folder) in each
interpreter, with every `markdown.render` call timed: build seconds, the report's render stage and
the seconds spent in `markdown.render`. `--json FILE` writes every figure. Nothing here is asserted
by a test: times depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


def corpus_documents(corpus: Path) -> list[dict]:
    from registry.config import Limits
    from registry.parse.document import read_document

    documents = []
    for skill_md in sorted(corpus.rglob("SKILL.md")):
        folder = skill_md.parent
        files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
        body = read_document(skill_md.read_bytes(), str(skill_md), Limits()).body
        skill_id = f"{folder.parent.name}/{folder.name}"
        raw_base = f"../../../raw/{skill_id}/"
        documents.append(
            {
                "path": str(skill_md.relative_to(corpus)), "body": body, "raw_base": raw_base, "skill_id": skill_id,
                "files": files,
            }
        )  # fmt: skip
    return documents


def visible_text(rendered: str) -> str:
    return _SPACE.sub(" ", html.unescape(_TAG.sub("", rendered))).strip()


def worker(documents_file: Path, rounds: int) -> dict:
    """Runs in the child interpreter: whichever `registry` is first on the path renders."""
    import registry
    from registry.emit.markdown import LinkContext, make_renderer, render

    documents = json.loads(documents_file.read_text(encoding="utf-8"))
    if "homes" in LinkContext.__dataclass_fields__:  # a tree that serves each file from its one home
        from registry.emit.urls import FileHomes

        contexts = [LinkContext("../../../", FileHomes.of(d["skill_id"], None, d["files"])) for d in documents]
    else:
        contexts = [LinkContext(d["raw_base"], frozenset(d["files"])) for d in documents]
    renderer = make_renderer()
    samples: list[list[float]] = [[] for _ in documents]
    texts: list[str] = []
    for round_number in range(rounds + 1):
        for index, (document, links) in enumerate(zip(documents, contexts, strict=True)):
            started = time.perf_counter()
            rendered = render(renderer, document["body"], links)
            elapsed = time.perf_counter() - started
            if round_number == 0:  # warm-up: lexers loaded, caches filled
                texts.append(hashlib.sha256(visible_text(rendered).encode()).hexdigest())
            else:
                samples[index].append(elapsed * 1000)
    return {"module": registry.__file__, "ms": [statistics.median(s) for s in samples], "texts": texts}


def build_worker(source: Path, out: Path) -> dict:
    """Runs in the child interpreter: a cold build with every markdown.render call timed."""
    import registry.emit.markdown as markdown
    from registry.build import build
    from registry.config import BuildOptions

    spent = [0.0]
    render = markdown.render

    def timed(*arguments):
        started = time.perf_counter()
        try:
            return render(*arguments)
        finally:
            spent[0] += time.perf_counter() - started

    markdown.render = timed
    started = time.perf_counter()
    result = build(BuildOptions(source=source, out=out, jobs=1))
    return {
        "module": markdown.__file__,
        "build_s": round(time.perf_counter() - started, 2),
        "render_stage_s": round(result.timings["render"], 2),
        "markdown_render_s": round(spent[0], 2),
    }


def run_worker(tree: Path, *arguments: str) -> dict:
    environment = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(Path(__file__).resolve()), *arguments]
    result = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"error: the renderer of {tree} failed:\n{result.stderr}")
    answer = json.loads(result.stdout)
    if not answer["module"].startswith(str(tree)):
        raise SystemExit(f"error: expected the registry of {tree}, the worker imported {answer['module']}")
    return answer


def extract(revision: str, into: Path) -> Path:
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"error: git archive {revision}: {archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def summary(milliseconds: list[float]) -> dict:
    ordered = sorted(milliseconds)
    return {
        "median_ms": round(statistics.median(ordered), 4),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 4),
        "total_ms": round(sum(ordered), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--baseline", default="2e222b1", help="git revision of the old renderer")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--build", type=Path, help="also time a cold build of this source, old and new")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--build-worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        json.dump(worker(arguments.worker, arguments.rounds), sys.stdout)
        return
    if arguments.build_worker:
        json.dump(build_worker(*arguments.build_worker), sys.stdout)
        return

    documents = corpus_documents(arguments.corpus)
    with tempfile.TemporaryDirectory(prefix="markdown-bench-") as work:
        documents_file = Path(work) / "documents.json"
        documents_file.write_text(json.dumps(documents), encoding="utf-8")
        baseline = extract(arguments.baseline, Path(work) / "baseline")
        rounds = ("--rounds", str(arguments.rounds))
        old = run_worker(baseline, "--worker", str(documents_file), *rounds)
        new = run_worker(ROOT, "--worker", str(documents_file), *rounds)
        builds = {}
        if arguments.build:
            for name, tree in ((f"old ({arguments.baseline})", baseline), ("new", ROOT)):
                out = Path(work) / f"site-{len(builds)}"
                builds[name] = run_worker(tree, "--build-worker", str(arguments.build.resolve()), str(out))
                del builds[name]["module"]

    figures = {
        "documents": len(documents),
        "body_bytes": sum(len(d["body"].encode()) for d in documents),
        "rounds": arguments.rounds,
        f"old ({arguments.baseline})": summary(old["ms"]),
        "new": summary(new["ms"]),
        "same_visible_text": sum(a == b for a, b in zip(old["texts"], new["texts"], strict=True)),
    }
    old_figures, new_figures = figures[f"old ({arguments.baseline})"], figures["new"]
    figures["ratio_old_over_new"] = {
        key: round(old_figures[key] / new_figures[key], 1) for key in ("median_ms", "p95_ms", "total_ms")
    }
    print(f"{figures['documents']} bodies, {figures['body_bytes']:,} bytes, median of {arguments.rounds} rounds each")
    print(f"{'renderer':<18} {'median ms':>10} {'p95 ms':>10} {'total ms':>10}")
    for name in (f"old ({arguments.baseline})", "new"):
        row = figures[name]
        print(f"{name:<18} {row['median_ms']:>10.3f} {row['p95_ms']:>10.3f} {row['total_ms']:>10.1f}")
    ratio = figures["ratio_old_over_new"]
    print(f"{'old / new':<18} {ratio['median_ms']:>9.1f}x {ratio['p95_ms']:>9.1f}x {ratio['total_ms']:>9.1f}x")
    print(f"same visible text: {figures['same_visible_text']} of {figures['documents']}")
    if builds:
        figures["cold_build"] = builds
        print(f"cold build of {arguments.build}, --jobs 1:")
        for name, row in builds.items():
            print(f"  {name:<16} " + ", ".join(f"{key} {value}" for key, value in row.items()))
    if arguments.json:
        arguments.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Skill pages, old against new: `python -m bench.page_render --source DIR [--baseline REV] [--json FILE]`.

Builds SOURCE (a skills-index folder) with this tree and with git revision REV (default HEAD), each in its
own interpreter with that tree first on PYTHONPATH (REV is taken out with `git archive` into a temporary
folder; the repository's git state is not touched), one after the other in the same run, `--jobs 1` so
every page is rendered in the measured process. `--baseline-tree DIR` compares with a tree in a folder instead
(a copy of the work tree with some files taken back, to measure one change among others). For each tree:

- a cold build (no site, no build state): the render stage's CPU seconds (process_time around
  pipeline._render: every emitter's per-skill hook, the render keys, the writes) and wall seconds, and
  inside it the CPU seconds of markdown.render, of Pygments (pygments.format: lexing and formatting, with
  its number of calls) and of Jinja's Template.render;
- a re-render: the render entries of the build state dropped and the build run again, so every page is
  rendered again from the kept analyses, as after a template, code or library change (the new tree then
  finds its highlighted blocks in the build cache);
- the bytes of every skill page (`skills/<publisher>/<name>/index.html`): median, max and total; and the
  bytes of the static files every page references.

CPU time is the figure to compare: the machine may be shared, and wall times move with its load.
`--json FILE` writes every figure. Nothing here is asserted by a test (tests/test_bench.py runs it small).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.markdown_render import extract

ROOT = Path(__file__).resolve().parents[1]


def worker(source: Path, out: Path) -> dict:
    """Runs in the child interpreter: whichever `registry` is first on the path builds."""
    import jinja2.environment
    import pygments

    import registry
    import registry.emit.markdown as markdown
    from registry import pipeline
    from registry.build import build
    from registry.config import BuildOptions, search_cache
    from registry.state import BuildState

    spent: dict[str, float] = {}
    calls: dict[str, int] = {}

    def timed(owner, name: str, label: str) -> None:
        real = getattr(owner, name)

        def wrapper(*arguments, **keywords):
            started = time.process_time()
            try:
                return real(*arguments, **keywords)
            finally:
                spent[label] = spent.get(label, 0.0) + time.process_time() - started
                calls[label] = calls.get(label, 0) + 1

        setattr(owner, name, wrapper)

    timed(pipeline, "_render", "render_stage")
    timed(markdown, "render", "markdown")
    timed(pygments, "format", "pygments")
    timed(jinja2.environment.Template, "render", "jinja")

    def one_build() -> dict:
        spent.clear()
        calls.clear()
        wall = time.perf_counter()
        result = build(BuildOptions(source=source, out=out, jobs=1))
        return {
            "build_wall_s": round(time.perf_counter() - wall, 2),
            "render_stage_wall_s": round(result.timings["render"], 2),
            "render_stage_cpu_s": round(spent.get("render_stage", 0.0), 2),
            "markdown_cpu_s": round(spent.get("markdown", 0.0), 2),
            "pygments_cpu_s": round(spent.get("pygments", 0.0), 2),
            "pygments_calls": calls.get("pygments", 0),
            "jinja_cpu_s": round(spent.get("jinja", 0.0), 3),  # every template, the site-wide pages' included
            "pages_rendered": result.work.get("rendered"),
        }

    cold = one_build()
    state = BuildState(search_cache(out) / "state.sqlite")
    try:
        state._db.execute("DELETE FROM cache WHERE kind = 'render'")
        state.set_meta("inputs", None)  # not "nothing changed": the pipeline runs
    finally:
        state.close()
    again = one_build()
    sizes = sorted(page.stat().st_size for page in out.glob("skills/*/*/index.html"))
    static = sum(path.stat().st_size for path in (out / "static").iterdir() if path.is_file())
    return {
        "module": registry.__file__,
        "cold": cold,
        "rerender": again,
        "pages": {
            "count": len(sizes),
            "median_bytes": int(statistics.median(sizes)) if sizes else 0,
            "max_bytes": sizes[-1] if sizes else 0,
            "total_bytes": sum(sizes),
            "static_bytes": static,
        },
    }


def run_worker(tree: Path, source: Path, out: Path) -> dict:
    environment = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(source), str(out)]
    result = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"error: the build of {tree} failed:\n{result.stderr}")
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    if not answer["module"].startswith(str(tree)):
        raise SystemExit(f"error: expected the registry of {tree}, the worker imported {answer['module']}")
    del answer["module"]
    return answer


def table(figures: dict) -> list[str]:
    names = [name for name in figures if name not in ("source", "skills")]
    rows = [
        ("render stage CPU s, cold build", lambda f: f["cold"]["render_stage_cpu_s"]),
        ("  wall s", lambda f: f["cold"]["render_stage_wall_s"]),
        ("  markdown.render CPU s", lambda f: f["cold"]["markdown_cpu_s"]),
        ("  Pygments CPU s", lambda f: f["cold"]["pygments_cpu_s"]),
        ("  Pygments calls", lambda f: f["cold"]["pygments_calls"]),
        ("  Jinja CPU s (all pages)", lambda f: f["cold"]["jinja_cpu_s"]),
        ("render stage CPU s, every page again", lambda f: f["rerender"]["render_stage_cpu_s"]),
        ("  wall s", lambda f: f["rerender"]["render_stage_wall_s"]),
        ("  Pygments CPU s", lambda f: f["rerender"]["pygments_cpu_s"]),
        ("  Pygments calls", lambda f: f["rerender"]["pygments_calls"]),
        ("cold build wall s", lambda f: f["cold"]["build_wall_s"]),
        ("skill page median bytes", lambda f: f["pages"]["median_bytes"]),
        ("skill page max bytes", lambda f: f["pages"]["max_bytes"]),
        ("skill pages total bytes", lambda f: f["pages"]["total_bytes"]),
        ("static/ bytes (once per site)", lambda f: f["pages"]["static_bytes"]),
    ]
    lines = [f"{'':40}" + "".join(f"{name:>16}" for name in names)]
    for label, value in rows:
        lines.append(f"{label:40}" + "".join(f"{value(figures[name]):>16,}" for name in names))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="a skills-index folder (bench/synthetic.py makes one)")
    parser.add_argument("--baseline", default="HEAD", help="git revision of the old pages (default HEAD)")
    parser.add_argument("--baseline-tree", type=Path, help="a folder holding the old tree instead (a copy of this one)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        print(json.dumps(worker(*arguments.worker)))
        return
    if arguments.source is None:
        parser.error("--source is required")
    source = arguments.source.resolve()
    figures: dict = {"source": str(source), "skills": sum(1 for _ in source.rglob("SKILL.md"))}
    with tempfile.TemporaryDirectory(prefix="page-render-bench-") as work:
        if arguments.baseline_tree:
            baseline, label = arguments.baseline_tree.resolve(), f"old ({arguments.baseline_tree.name})"
        else:
            baseline, label = extract(arguments.baseline, Path(work) / "baseline"), f"old ({arguments.baseline})"
        for name, tree in ((label, baseline), ("new", ROOT)):
            figures[name] = run_worker(tree, source, Path(work) / f"site-{len(figures)}" / "site")
        # Before the sites are deleted: at 10,000 skills that takes minutes.
        print(f"{figures['skills']:,} skills from {source}, --jobs 1, CPU seconds by process_time", flush=True)
        print("\n".join(table(figures)), flush=True)
        if arguments.json:
            arguments.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""The benchmark runs (small): it reports every figure; no wall-clock time is asserted."""

import json
import random
import subprocess
import sys

from conftest import REPO_ROOT, SKILLS_INDEX

sys.path.insert(0, str(REPO_ROOT))

from bench import run as bench_run
from bench import synthetic


def test_bench_build_times_smoke(tmp_path):
    out = tmp_path / "bench.json"
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "build_times.py"), "--source", str(SKILLS_INDEX), "--runs", "1",
         "--json", str(out)],
        capture_output=True, text=True, check=True, cwd=REPO_ROOT,
    )  # fmt: skip
    report = json.loads(out.read_text())
    assert report["cold"][0]["published"] == 23
    assert report["cold"][0]["whoosh_reindexed"] == 23
    assert report["noop"][0]["unchanged"] or report["noop"][0]["whoosh_reindexed"] == 0
    assert report["query_latency"]["queries"] >= 70
    assert "cold build" in result.stdout and "CLI search" in result.stdout


def test_bench_gc_thresholds_smoke(tmp_path):
    """Both sides build the same edited registry, and every figure is printed."""
    result = subprocess.run(
        [sys.executable, "-m", "bench.gc_thresholds", "--skills", "60", "--rounds", "1", "--keep", str(tmp_path)],
        capture_output=True, text=True, check=True, cwd=REPO_ROOT,
    )  # fmt: skip
    assert "python (700, 10, 10)" in result.stdout and "build (100000, 50, 100)" in result.stdout
    assert "build / python:" in result.stdout
    log = subprocess.run(["git", "log", "--format=%s", "-2"], cwd=tmp_path / "gc-n60" / "repo", capture_output=True,
                         text=True, check=True).stdout.split("\n")  # fmt: skip
    assert all(line.startswith("Edit ") for line in log[:2])  # one skill edited before each of the two builds


def test_bench_hook_memory_smoke(tmp_path):
    """Every site-wide hook of a cold build is measured, in the order the hooks run, and the stages' peaks kept."""
    from registry.emit.registry import EMITTERS

    out = tmp_path / "hooks.json"
    result = subprocess.run(
        [sys.executable, "-m", "bench.hook_memory", "--source", str(SKILLS_INDEX), "--out", str(tmp_path / "site"),
         "--json", str(out)],
        capture_output=True, text=True, check=True, cwd=REPO_ROOT,
    )  # fmt: skip
    report = json.loads(out.read_text())
    assert [row["hook"] for row in report["hooks"]] == [type(emitter).__name__ for emitter in EMITTERS]
    for row in report["hooks"]:
        assert row["rss_before_mb"] > 0 and row["peak_mb"] >= row["rss_after_mb"] > 0
    assert {"render", "emit", "search"} <= set(report["stages"])
    assert (tmp_path / "site" / "index.json").is_file() and "SiteSearch" in result.stdout


def test_bench_page_render_smoke(tmp_path):
    """Old (HEAD) and new pages from one run: every figure present, the same pages rendered by both."""
    out = tmp_path / "pages.json"
    result = subprocess.run(
        [sys.executable, "-m", "bench.page_render", "--source", str(SKILLS_INDEX), "--json", str(out)],
        capture_output=True, text=True, check=True, cwd=REPO_ROOT,
    )  # fmt: skip
    report = json.loads(out.read_text())
    for name in ("old (HEAD)", "new"):
        figures = report[name]
        assert figures["cold"]["pages_rendered"] == figures["rerender"]["pages_rendered"] == 23
        assert figures["pages"]["count"] == 23 and 0 < figures["pages"]["median_bytes"] <= figures["pages"]["max_bytes"]
        assert figures["cold"]["render_stage_cpu_s"] > 0
    assert report["new"]["rerender"]["pygments_calls"] == 0  # every block found in the build cache
    assert "skill page median bytes" in result.stdout


def test_harness_end_to_end_small(tmp_path, corpus):
    n = 25
    out = tmp_path / "results.json"
    keep = tmp_path / "work"
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "run.py"), "--sizes", str(n), "--json", str(out), "--keep",
         str(keep)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(out.read_text())
    r = report["sizes"][str(n)]

    # The build published every generated skill, from a real git history with version bumps.
    assert r["cold"]["counts"]["published"] == n and r["cold"]["counts"]["left_out"] == 0
    assert r["generated"]["commits"] > 1 and r["generated"]["version_bumps"] > 0
    log = subprocess.run(["git", "log", "--format=%H"], cwd=keep / f"n{n}" / "repo", capture_output=True, text=True)
    assert log.stdout.split()[0] == r["generated"]["head"]  # the one-skill edit was undone after the run
    assert len(log.stdout.split()) == r["generated"]["commits"]

    # No-op rebuild: the same index.json, nothing re-indexed; one change: a new index.json, one document re-indexed.
    assert r["index_json_same_after_noop"] is True
    assert r["noop"]["unchanged"] or r["noop"]["search"]["whoosh_indexed"] == 0
    assert r["index_json_changed_after_edit"] is True
    assert r["changed"]["search"]["whoosh_indexed"] == 1
    assert r["changed_skill"].startswith("skills-index/")

    # Every figure is there.
    for key in ("seconds", "build_seconds", "peak_rss_bytes", "peak_tree_rss_bytes", "stages", "counts"):
        assert key in r["cold"] and key in r["noop"] and key in r["changed"]
    assert {"crawl", "history", "parse", "validate", "score", "render", "emit", "search"} <= set(r["cold"]["stages"])
    assert r["cold"]["peak_rss_bytes"] > 10 * 1024 * 1024
    site = keep / f"n{n}" / "site"  # as the one-skill-changed build left it
    index = (site / "index.json").read_bytes()
    assert json.loads(index)["skills"] and 0 < r["index_json"]["gzip_bytes"] < r["index_json"]["raw_bytes"]
    assert bench_run.index_json_size(site)["sha256"] != r["index_json"]["sha256"]
    assert r["output"]["files"] > 3 * n and r["output"]["bytes"] > r["index_json"]["raw_bytes"]
    assert r["query_latency"]["queries"] >= 100 and r["query_latency"]["p50_ms"] <= r["query_latency"]["p95_ms"]
    assert r["search_indexing"]["whoosh_seconds"] is not None
    process = r["search_process_latency"]
    assert process["queries"] == 20 and 0 < process["p50_ms"] <= process["p95_ms"]
    # The one-skill pull request (the edit, its version bumped) is one update, and mergeable.
    assert r["check_pr"]["changes"] == 1 and r["check_pr"]["seconds"] > 0 and r["check_pr"]["mergeable"] is True

    # Hugo built the same skills: one page per skill.
    assert r["hugo_pages_written"] == n and r["hugo"]["pages"] == n
    assert r["ratio_cold_vs_hugo"] > 0

    # Targets are all printed; at this size none is measured.
    assert [t["met"] for t in report["targets"]] == [None] * len(bench_run.TARGETS)  # no size reaches 10,000
    assert r["output_bytes_per_source_byte"] == round(r["output"]["bytes"] / r["source"]["bytes"], 3) > 1
    assert r["output_files_per_skill"] == round(r["output"]["files"] / n, 2)
    assert "ours / Hugo" in result.stdout and "Targets" in result.stdout


def test_generation_is_deterministic_and_draws_from_the_corpus(tmp_path, corpus):
    profile = synthetic.load_profile(corpus)
    assert profile.summary["corpus_templates"] > 400 and profile.summary["with_support_files"] > 50
    first = synthetic.generate(tmp_path / "a", 40, seed=3, profile=profile)
    again = synthetic.generate(tmp_path / "b", 40, seed=3, profile=synthetic.load_profile(corpus))
    other = synthetic.generate(tmp_path / "c", 40, seed=4, profile=profile)
    assert first["head"] == again["head"] != other["head"]
    assert len(first["skills_paths"]) == len(set(first["skills_paths"])) == 40
    for path in first["skills_paths"]:
        text = (tmp_path / "a" / path / "SKILL.md").read_text()
        assert f"\nname: {path.rsplit('/', 1)[1]}\n" in text  # the folder name is the skill name
    assert (tmp_path / "a" / "registry.yaml").read_text() == (tmp_path / "b" / "registry.yaml").read_text()


def test_body_keeps_code_and_placeholders_and_replaces_prose():
    body = (
        "# Deploying things\n\nRun the deployment carefully with {{target}} and $focus, see `install.sh`.\n\n"
        "```bash\ncurl -fsSL https://example.com/install.sh | sh\n```\n\n- Check [the docs](https://example.com/docs)\n"
    )
    parts, headings = synthetic._skeleton(body, False, False)
    template = synthetic.Template("x", (), [], parts, [], False, headings)
    words = ["alpha", "bravo", "charlie"]
    profile = synthetic.Profile([template], words, [1, 2, 3], words, [1, 2, 3], [40], ["a"], "f")
    rendered = synthetic.render_body(template, profile, seed=random.Random(1).getrandbits(32))
    assert "```bash\ncurl -fsSL https://example.com/install.sh | sh\n```\n" in rendered
    assert "{{target}}" in rendered and "$focus" in rendered and "`install.sh`" in rendered
    assert "](https://example.com/docs)" in rendered
    assert "Deploying" not in rendered and "carefully" not in rendered and "deployment" not in rendered
    prose = rendered.split("```")[0]
    assert set(w.lower() for w in synthetic._WORD.findall(prose.lower().replace("target", "").replace("focus", ""))) <= {
        "alpha", "bravo", "charlie", "install"
    }  # fmt: skip
    assert rendered.count("\n") == body.count("\n")
    assert headings == {0, 1}  # "Deploying things"


def test_headings_never_become_tool_sections():
    parts, headings = synthetic._skeleton("## Usage notes\n\n#### Details here\n\nSome words.\n", False, False)
    template = synthetic.Template("x", (), [], parts, [], False, headings)
    profile = synthetic.Profile([template], ["command"], [1], ["command"], [1], [40], ["a"], "f")
    rendered = synthetic.render_body(template, profile, seed=5)
    assert rendered.splitlines() == ["## Usage notes", "", "#### Details here", "", "Command command."]


def test_targets_report_met_and_unmeasured():
    result = {
        "ratio_cold_vs_hugo": 2.5,
        "output_bytes_per_source_byte": 4.8,
        "noop": {"seconds": 1.5, "peak_tree_rss_bytes": 10},
        "changed": {"seconds": 1.0},
        "query_latency": {"p95_ms": 25.0},
        "search_process_latency": {"p50_ms": 160.0, "p95_ms": 200.0},
        "check_pr": {"seconds": 12.0},
        "cold": {"peak_tree_rss_bytes": 10},
        "search_download": {"total_sent_bytes": {"median": 80_000, "max": 140_000}},
    }
    verdicts = {v["target"]: v["met"] for v in bench_run.targets({10000: result})}
    assert verdicts == {
        "cold build of 10,000 at most 2.5x Hugo's (ratio <= 2.5)": True,
        "no-op rebuild at 10,000 under 0.5 s": False,
        "one skill changed at 10,000 under 2 s": True,
        "peak memory at 50,000 under 1.5 GiB": None,
        "CLI search at 10,000 as a whole process, median under 150 ms": False,
        "CLI search at 10,000 as a whole process, p95 under 250 ms": True,
        "first search query at 10,000 sends under 150 KB (largest of 20)": True,
        "check-pr of a one-skill pull request at 10,000 under 10 s": False,
    }
    assert "[NOT MET] no-op rebuild" in bench_run.format_targets(bench_run.targets({10000: result}))


def test_risk_eval_cost_worker_collects_as_the_build_or_as_python_says(tmp_path):
    """bench/risk_eval.py's cost worker runs the analysis with the tree's build collector thresholds, or with
    Python's (`--collector python`), and says which it used."""
    import gc

    from conftest import write_skill

    from bench import risk_eval
    from registry.workers import BUILD_COLLECTION_THRESHOLDS

    write_skill(
        tmp_path / "source" / "acme", "demo", "---\nname: demo\ndescription: A demo. Use when testing.\n---\n\nHi.\n"
    )
    before = gc.get_threshold()
    python_default = (700, 10, 10)  # a fresh worker process starts with Python's own thresholds
    try:
        gc.set_threshold(*python_default)
        built = risk_eval._worker(tmp_path / "source", 1, False, "build")
        assert gc.get_threshold() == python_default  # the caller's thresholds are back
        plain = risk_eval._worker(tmp_path / "source", 1, False, "python")
    finally:
        gc.set_threshold(*before)
    assert built["skills"] == plain["skills"] == 1 and len(built["ms_per_skill_rounds"]) == 1
    assert tuple(built["collector"]) == BUILD_COLLECTION_THRESHOLDS
    assert tuple(plain["collector"]) == python_default != BUILD_COLLECTION_THRESHOLDS

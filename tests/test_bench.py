"""The benchmark runs (small): it reports every figure; no wall-clock time is asserted."""

import json
import subprocess
import sys

from conftest import REPO_ROOT, SKILLS_INDEX


def test_bench_build_times_smoke(tmp_path):
    out = tmp_path / "bench.json"
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "build_times.py"), "--source", str(SKILLS_INDEX), "--runs", "1",
         "--json", str(out)],
        capture_output=True, text=True, check=True, cwd=REPO_ROOT,
    )  # fmt: skip
    report = json.loads(out.read_text())
    assert report["cold"][0]["published"] == 23
    assert report["cold"][0]["whoosh_reindexed"] == 23 and report["noop"][0]["whoosh_reindexed"] == 0
    assert report["query_latency"]["queries"] >= 70
    assert "cold build" in result.stdout and "CLI search" in result.stdout

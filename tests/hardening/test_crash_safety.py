"""Crash safety, black box through the CLI: SIGKILL at any moment leaves the previous site; a lock keeps builds apart.

Only the command line is used (`python -m registry.cli build --source S --out O`), so these tests hold
whatever the build does inside: staging folders, incremental state, parallel workers.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CORPUS, REPO_ROOT, simple_skill, write_skill
from site_checks import check_index_json

REPOS = ("skillli", "wolffish-app")  # 71 real skills: a rebuild takes a few seconds
KILL_FRACTIONS = (0.15, 0.4, 0.65, 0.9)


def start_build(source: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "registry.cli", "build", "--source", str(source), "--out", str(out), "-q"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: workers it starts are killed with it
    )


def run_build(source: Path, out: Path) -> float:
    started = time.monotonic()
    process = start_build(source, out)
    stdout, stderr = process.communicate(timeout=600)
    assert process.returncode == 0, stderr.decode() + stdout.decode()
    return time.monotonic() - started


def kill(process: subprocess.Popen) -> int:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)
    return process.returncode


def site_hashes(out: Path) -> dict[str, str]:
    hashes = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if path.is_symlink():
            hashes[rel] = "link:" + os.readlink(path)
        elif path.is_file():
            hashes[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            hashes[rel] = "dir"
    return hashes


def beside(out: Path) -> set[str]:
    return set(os.listdir(out.parent))


def beside_state(out: Path) -> dict[str, tuple[int, int]]:
    """Everything beside the site (staging folders, caches, spare copies), with sizes and mtimes."""
    state = {}
    for folder, dirs, files in os.walk(out.parent):
        if Path(folder) == out.parent and out.name in dirs:
            dirs.remove(out.name)
        for name in dirs + files:
            path = os.path.join(folder, name)
            with contextlib.suppress(FileNotFoundError):
                info = os.lstat(path)
                state[path] = (info.st_size, info.st_mtime_ns)
    return state


def change_source(source: Path, round_number: int) -> dict[str, str]:
    """Edit several skills, add one, remove one; returns what the next complete site must show."""
    skill_mds = sorted(p for p in source.rglob("SKILL.md") if "hardening-added" not in str(p))
    for path in skill_mds[round_number * 3 : round_number * 3 + 3]:
        path.write_bytes(path.read_bytes() + f"\n\nEdited in round {round_number}.\n".encode())
    removed = skill_mds[-1 - round_number]
    shutil.rmtree(removed.parent)
    shutil.rmtree(source / "hardening-added", ignore_errors=True)
    name = f"added-{round_number}"
    write_skill(source, f"hardening-added/{name}", simple_skill(name, description=f"Added in round {round_number}."))
    return {"added": name, "removed": str(removed.parent.relative_to(source))}


def published_names(out: Path) -> set[str]:
    return {s["name"] for s in json.loads((out / "index.json").read_text())["skills"]}


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("crash") / "source"
    for repo in REPOS:
        shutil.copytree(CORPUS / repo, root / repo, symlinks=True)
    return root


def test_sigkill_at_any_moment_leaves_the_previous_site(source, tmp_path):
    out = tmp_path / "site" / "public"
    run_build(source, out)
    expected_beside = beside(out)

    # How long does a rebuild take? Measured with a rebuild of the same kind (incremental, same site).
    change = change_source(source, 0)
    duration = run_build(source, out)

    killed = 0
    for number, fraction in enumerate(KILL_FRACTIONS, start=1):
        previous = site_hashes(out)
        change = change_source(source, number)
        process = start_build(source, out)
        time.sleep(duration * fraction)
        code = kill(process)
        assert code in (0, -signal.SIGKILL)
        now = site_hashes(out)
        if now != previous:
            # Only one other state is allowed: the whole new site, swapped in before the kill landed.
            assert change["added"] in published_names(out), f"killed at {fraction:.0%}: a partial site"
            assert not (out / "skills").joinpath(*change["removed"].split("/")).exists()
        killed += code == -signal.SIGKILL and now == previous
        check_index_json(out)
    assert killed >= len(KILL_FRACTIONS) // 2, f"only {killed} builds were still running when killed"

    # As soon as anything appears or changes beside the site (a staging folder, a spare copy, a temporary
    # file, the build state), kill.
    previous = site_hashes(out)
    change = change_source(source, len(KILL_FRACTIONS) + 1)
    before = beside_state(out)
    process = start_build(source, out)
    appeared = False
    while process.poll() is None and not appeared:
        appeared = beside_state(out) != before
    code = kill(process)
    assert appeared, "a build writes somewhere beside the site before it swaps it in"
    assert code == -signal.SIGKILL, "the build ended before it could be killed"
    assert site_hashes(out) == previous

    # The next build completes, shows the change and leaves nothing behind.
    run_build(source, out)
    index = check_index_json(out)
    names = {s["name"] for s in index["skills"]}
    assert change["added"] in names and f"added-{len(KILL_FRACTIONS)}" not in names
    assert not (out / "skills").joinpath(*change["removed"].split("/")).exists()
    leftovers = beside(out) - expected_beside
    assert leftovers == set(), f"left beside the site: {leftovers}"
    temporary = [p for p in beside_state(out) if ".staging" in p or p.endswith(".tmp")]
    assert temporary == [], temporary


def test_two_builds_at_once_one_fails_fast_naming_the_lock(source, tmp_path):
    out = tmp_path / "site" / "public"
    builds = [start_build(source, out), start_build(source, out)]
    ended: list[int] = []
    while len(ended) < 2:
        for number, process in enumerate(builds):
            if number not in ended and process.poll() is not None:
                ended.append(number)
        time.sleep(0.005)
    outputs = [(p.returncode, (p.stdout.read() + p.stderr.read()).decode()) for p in builds]
    codes = sorted(code for code, _ in outputs)
    assert codes[0] == 0 and codes[1] != 0, outputs
    loser, winner = (outputs[ended[0]], outputs[ended[1]])
    assert loser[0] != 0, "the build that could not take the lock ends first: it fails fast"
    assert "another build" in loser[1] and f".{out.name}.lock" in loser[1], loser[1]
    assert winner[0] == 0
    index = check_index_json(out)
    assert index["skill_count"] > 40
    assert not [n for n in os.listdir(out.parent) if "staging" in n]

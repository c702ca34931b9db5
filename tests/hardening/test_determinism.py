"""Byte-identical output for real skills: twice, across PYTHONHASHSEED values, across directory listing orders.

tests/test_build.py covers skills-index twice and across two hash seeds; here the source is part of
the real corpus (more dialects, odd layouts), and the listing order of the file system is shuffled.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS, REPO_ROOT
from hardening_support import run_build

REPOS = ("skillli", "gibb-eri-sh", "vercel-agent-skills")


def tree(out: Path) -> dict[str, str]:
    return {
        path.relative_to(out).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(out.rglob("*"))
        if path.is_file()
    }


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("determinism") / "source"
    for repo in REPOS:
        shutil.copytree(CORPUS / repo, root / repo)
    return root


@pytest.fixture(scope="module")
def reference(source, tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("reference") / "public"
    result = run_build(source, out)
    assert len(result.published) > 40
    return tree(out)


class _Listing:
    """What os.scandir returns, in another order: iterable and a context manager."""

    def __init__(self, entries):
        self._entries = entries

    def __iter__(self):
        return iter(self._entries)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        return None


def reorder(monkeypatch, order):
    real_scandir, real_listdir, real_iterdir = os.scandir, os.listdir, Path.iterdir

    def scandir(path="."):
        with real_scandir(path) as entries:
            return _Listing(order(list(entries)))

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", lambda path=".": order(real_listdir(path)))
    monkeypatch.setattr(Path, "iterdir", lambda self: iter(order(list(real_iterdir(self)))))


def shuffled(seed):
    generator = random.Random(seed)

    def order(items):
        items = list(items)
        generator.shuffle(items)
        return items

    return order


@pytest.mark.parametrize(
    "order", [lambda items: list(reversed(items)), shuffled(7), shuffled(99)], ids=["reversed", "shuffled", "shuffled2"]
)
def test_listing_order_does_not_change_a_byte(order, source, reference, tmp_path, monkeypatch):
    reorder(monkeypatch, order)
    out = tmp_path / "public"
    run_build(source, out)
    monkeypatch.undo()
    assert differences(tree(out), reference) == []


def test_a_second_build_and_other_hash_seeds_give_the_same_bytes(source, reference, tmp_path):
    out = tmp_path / "again"
    run_build(source, out)
    assert differences(tree(out), reference) == []
    for seed in ("0", "4242"):
        seeded = tmp_path / f"seed{seed}"
        subprocess.run(
            [sys.executable, "-m", "registry.cli", "build", "--source", str(source), "--out", str(seeded), "-q",
             "--base-url", "https://skills.example.org/"],
            env={**os.environ, "PYTHONHASHSEED": seed},
            cwd=REPO_ROOT,
            check=True,
            capture_output=True,
        )  # fmt: skip
        assert differences(tree(seeded), reference) == [], f"PYTHONHASHSEED={seed}"
